import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// The small ones of the second security review: `nosniff` on every answer, `no-store` on the status reads, a length
/// cap on user ids, and `chia.genericReturnHost` checked when the configuration loads.
@Suite("Small hardening")
struct SmallHardeningTests {
    @Test func everyAnswerIsNosniffAndTheStatusReadsAreNoStore() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        _ = try await fixture.store.createConnectSession(
            ConnectSessionRecord(
                id: "cs_done", user: "alice", status: .ok, createdAt: fixture.clock.now,
                updatedAt: fixture.clock.now))
        _ = try await fixture.store.createVerification(
            VerificationRecord(
                id: "ver_1", user: "alice", workflow: "merchant-onboarding",
                status: VerificationStatus(rawValue: "approved"),
                createdAt: fixture.clock.now, updatedAt: fixture.clock.now))
        try await fixture.run { api in
            let connect = try await api.send(.get, "/v2/connect-sessions/cs_done")
            #expect(connect.status == 200)
            #expect(connect.headers["cache-control"] == "no-store")
            let verification = try await api.send(.get, "/v2/verifications/merchant-onboarding")
            #expect(verification.status == 200)
            #expect(verification.headers["cache-control"] == "no-store")
            let answers = [
                connect, verification,
                try await api.send(.get, "/v2/catalog"),
                try await api.send(.get, "/v2/connect-sessions/cs_none"),
                try await api.send(.post, "/v2/connect-sessions", user: nil),
                try await api.send(.post, "/v2/connect-sessions", body: "{"),
                try await api.send(.get, "/healthz", user: nil),
                try await api.send(.get, "/openapi.json", user: nil),
                try await api.send(.get, "/nowhere", user: nil),
                try await api.send(.delete, "/v2/catalog"),
            ]
            for answer in answers {
                #expect(answer.headers["x-content-type-options"] == "nosniff", "\(answer.status)")
            }
        }
    }

    @Test func aUserIDLongerThan256BytesIsRefused() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        try await fixture.run { api in
            let longest = String(repeating: "u", count: 256)
            #expect(try await api.send(.get, "/v2/connect-sessions/cs_1", user: longest).status == 404)
            let tooLong = try await api.send(.get, "/v2/connect-sessions/cs_1", user: longest + "u")
            #expect(tooLong.status == 401)
            // Bytes, not characters: 129 two-byte characters are 258 bytes.
            #expect(
                try await api.send(.get, "/v2/connect-sessions/cs_1", user: String(repeating: "é", count: 129))
                    .status == 401)
        }
        #expect(fixture.logs.captured.filter { $0.contains(#""reason":"malformed""#) }.count == 2)
        #expect(AuthenticatedUser.isAcceptableID(String(repeating: "é", count: 128)))
    }

    @Test(arguments: [
        ("partner.example", "partner.example"), ("Partner.Example", "partner.example"),
        ("https://partner.example", nil), ("partner.example/home", nil), ("partner.example:443", nil),
        ("user@partner.example", nil), ("partner", nil), ("partner..example", nil), (" partner.example", nil),
    ])
    func theGenericReturnHostIsABareHostName(value: String, loaded: String?) throws {
        let file = BackendConfigurationTests.validFile.replacingOccurrences(
            of: #""genericReturnHost": "partner.example""#, with: #""genericReturnHost": "\#(value)""#)
        let result = Result {
            try BackendConfiguration.load(json: Data(file.utf8), environment: BackendConfigurationTests.environment)
        }
        switch (result, loaded) {
        case (.success(let configuration), let expected?):
            #expect(configuration.chia.genericReturnHost == expected)
        case (.failure(let error), nil):
            #expect((error as? ConfigurationErrors)?.errors.map(\.field) == ["chia.genericReturnHost"])
        default:
            Issue.record("\(value): \(result)")
        }
    }
}
