import BatonHTTP
import Testing

@testable import BatonSandbox

/// Every provider API route answers 401 to a missing or wrong key, and serves nothing.
@Suite struct AuthenticationTests {
    enum Provider: String, CaseIterable, Sendable { case chia, privue, bb }

    static let routes: [(Provider, HTTPMethod, String)] = [
        (.chia, .get, "/v2/catalog"), (.chia, .get, "/v2/assets/img_weight_care"),
        (.chia, .post, "/v2/handoff-sessions"),
        (.privue, .post, "/verifications"), (.privue, .get, "/verifications/x"),
        (.privue, .post, "/verifications/x/handoff"),
        (.bb, .post, "/v2/connect-sessions"), (.bb, .get, "/v2/connect-sessions/cs_x"),
    ]

    @Test func missingOrWrongKeysAre401Everywhere() async throws {
        try await Harness.run { harness in
            for (provider, method, path) in Self.routes {
                let origin: String
                let wrong: [HTTPHeaders]
                switch provider {
                case .chia, .privue:
                    origin = provider == .chia ? harness.sandbox.chiaOrigin : harness.sandbox.privueOrigin
                    let other = provider == .chia ? Harness.privueKey : Harness.chiaKey
                    wrong = [
                        [:], ["authorization": "Bearer wrong"], ["authorization": "Bearer \(other)"],
                        ["authorization": "Basic \(Harness.chiaKey)"],
                    ]
                case .bb:
                    origin = harness.sandbox.bbOrigin
                    wrong = [
                        [:], ["x-api-key": Harness.bbKey], ["x-client-id": Harness.bbClient],
                        ["x-api-key": "wrong", "x-client-id": Harness.bbClient],
                        ["x-api-key": Harness.bbKey, "x-client-id": "wrong"],
                        ["authorization": "Bearer \(Harness.bbKey)"],
                    ]
                }
                for headers in wrong {
                    var headers = headers
                    headers.set("content-type", "application/json")
                    let response = try await harness.send(
                        method, origin + path, headers: headers, body: Array("{}".utf8))
                    #expect(response.status == 401, "\(method) \(path) with \(headers.count) headers")
                    #expect(!response.bodyText.contains("cat_weight_care"))
                    #expect(!response.body.starts(with: [0x89, 0x50]))
                }
            }
        }
    }
}
