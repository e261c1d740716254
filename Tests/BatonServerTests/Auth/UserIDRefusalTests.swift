import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// A signed token whose `sub` is empty or holds a control character proves nothing, whichever
/// route it is sent to, so `"victim\u{0}x"` can never read or write `victim`'s rows.
@Suite("User ids with control characters")
struct UserIDRefusalTests {
    static let refused = [
        "victim\u{0}x", "victim\u{0}", "\u{7}bell", "tab\tuser", "line\nbreak", "del\u{7F}", "c1\u{85}",
    ]

    @Test(
        "a token for a user id with a control character is 401 on every app route",
        arguments: BackendEngines.available, refused)
    func refusedAtTheAuthenticator(engine: StoreEngine, user: String) async throws {
        let fixture = try await BackendFixture.make(engine)
        // The victim's own session, which the forged id would read on a store that cuts at NUL.
        #expect(
            try await fixture.store.createConnectSession(
                ConnectSessionRecord(
                    id: "cs_victim", user: "victim", status: .ok, createdAt: fixture.clock.now,
                    updatedAt: fixture.clock.now)))
        try await fixture.run { api in
            let read = try await api.send(.get, "/v2/connect-sessions/cs_victim", user: user)
            #expect(read.status == 401)
            #expect(read.problemCode == "unauthorized")
            let share = try await api.share(key: Share.key(), user: user)
            #expect(share.status == 401)
            // The victim still reads their own.
            #expect(try await api.send(.get, "/v2/connect-sessions/cs_victim", user: "victim").status == 200)
        }
    }

    @Test(
        "the token check's byte-level control test agrees with Unicode's general category",
        arguments: refused + ["alice", "user@example.com", "Zoë 42", "a\u{2028}", "\u{A0}nbsp", "é\u{1}", "~"])
    func controlCheckAgreesWithUnicode(id: String) {
        #expect(
            SignedTokenAuthenticator.hasControlCharacter(id)
                == id.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test(
        "ids are accepted unless empty or holding a control character",
        arguments: [
            ("alice", true), ("user@example.com", true), ("Zoë 42", true), ("", false), ("a\u{0}", false),
            ("a\u{1F}", false), ("a\u{9F}", false), ("a\u{2028}", true),
        ])
    func acceptableIDs(id: String, acceptable: Bool) {
        #expect(AuthenticatedUser.isAcceptableID(id) == acceptable)
    }

    @Test(
        "a session id decoded with a control character is 404 on every engine, never a store error",
        arguments: BackendEngines.available)
    func controlCharactersInPathParameters(engine: StoreEngine) async throws {
        let fixture = try await BackendFixture.make(engine)
        #expect(
            try await fixture.store.createConnectSession(
                ConnectSessionRecord(
                    id: "cs_1", user: "alice", status: .ok, createdAt: fixture.clock.now, updatedAt: fixture.clock.now)
            ))
        try await fixture.run { api in
            for path in ["/v2/connect-sessions/cs_1%00x", "/v2/connect-sessions/cs_1%00", "/v2/connect-sessions/%07"] {
                let response = try await api.send(.get, path)
                #expect(response.status == 404, "\(path)")
            }
            #expect(try await api.send(.get, "/v2/connect-sessions/cs_1").status == 200)
        }
    }
}
