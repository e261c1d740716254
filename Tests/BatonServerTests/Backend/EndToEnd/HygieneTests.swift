import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// Runs every flow, then scans every response and log line for secrets and journey URLs: a journey URL may appear
/// only in the one response that created it.
@Suite("Hygiene")
struct HygieneTests {
    @Test("no secret anywhere; no journey URL outside its creating response", arguments: BackendEngines.available)
    func everyFlowLeavesNothingBehind(engine: StoreEngine) async throws {
        try await SandboxBackend.run(engine) { env in
            var creating: [(response: Int, url: String)] = []
            func created(_ response: OutboundResponse, _ member: String) -> String? {
                let url = jsonObject(response)[member] as? String
                if let url { creating.append((env.fixture.responses.count - 1, url)) }
                return url
            }
            let tokens = ["alice", "bob"].map(env.fixture.token)

            // Chia share, its refusals and a replay after expiry.
            let key = Share.key()
            let shareBody = Share.body(item: "cat_weight_care", version: "2025-06-01")
            let share = try await env.app(
                .post, "/v2/handoff-sessions", headers: ["idempotency-key": key], json: shareBody)
            _ = created(share, "url")
            _ = try await env.app(.post, "/v2/handoff-sessions", headers: ["idempotency-key": key], json: "{}")
            env.clock.advance(by: 15 * 60)
            _ = try await env.app(.post, "/v2/handoff-sessions", headers: ["idempotency-key": key], json: shareBody)

            // Privue: handoff, journey, status.
            let handoff = try await env.app(
                .post, "/v2/verification-handoffs", json: #"{"workflow":"merchant-onboarding"}"#)
            let ticketURL = try #require(created(handoff, "url"))
            _ = try await VerificationFlowEndToEndTests.redeem(env, ticketURL)
            let verification = jsonObject(try await env.app(.get, "/v2/verifications/merchant-onboarding"))
            let verificationID = try #require(verification["verificationId"] as? String)
            _ = try await env.complete(env.sandbox.privueOrigin, journey: verificationID, #"{"status":"approved"}"#)
            _ = try await env.app(.get, "/v2/verifications/merchant-onboarding")

            // BB: create, journey, result, another user's read.
            let connect = try await env.app(.post, "/v2/connect-sessions", json: #"{"callback":"https"}"#)
            _ = created(connect, "hostedUrl")
            let sessionID = try #require(jsonObject(connect)["sessionId"] as? String)
            _ = try await env.complete(env.sandbox.bbOrigin, journey: sessionID, #"{"resultCode":"Ok"}"#)
            _ = try await env.app(.get, "/v2/connect-sessions/\(sessionID)")
            _ = try await env.app(.get, "/v2/connect-sessions/\(sessionID)", user: "bob")
            await env.sandbox.waitForWebhooks()

            // Operations output is scanned too.
            for path in ["/readyz", "/.well-known/apple-app-site-association"] {
                let response = try await env.transport.send(OutboundRequest(url: env.base + path))
                env.fixture.record(response)
            }
            for path in ["/metrics", "/readyz"] {
                let response = try await env.transport.send(OutboundRequest(url: env.running.admin.url(path)))
                env.fixture.record(response)
            }

            let responses = env.fixture.responses
            let logs = env.fixture.logs.captured
            #expect(!logs.isEmpty)
            let secrets =
                Array(TestConfiguration.environment.values) + tokens
                + [
                    String(TestConfiguration.environment["BATON_PRIVUE_WEBHOOK_SECRET"]!.dropFirst(6)),
                    String(TestConfiguration.environment["BATON_BB_WEBHOOK_SECRET"]!.dropFirst(6)),
                ]
            for (index, response) in responses.enumerated() {
                let text = response.bodyText + response.headers.map { "\($0.name): \($0.value)" }.joined()
                for secret in secrets { #expect(!text.contains(secret), "response \(index) leaks a secret") }
                let allowed = creating.filter { $0.response == index }.map(\.url)
                for (_, url) in creating where !allowed.contains(url) {
                    #expect(!text.contains(url), "response \(index) repeats a journey URL")
                }
                if allowed.isEmpty {
                    for marker in ["phs_", "#ticket=", "/connect/"] {
                        #expect(!text.contains(marker), "response \(index) contains \(marker)")
                    }
                }
            }
            for line in logs {
                for secret in secrets { #expect(!line.contains(secret), "a log line leaks a secret") }
                for (_, url) in creating { #expect(!line.contains(url), "a log line contains a journey URL") }
                for marker in ["phs_", "#ticket=", "ticket", "/connect/", "authorization", "x-api-key"] {
                    #expect(!line.lowercased().contains(marker.lowercased()), "a log line contains \(marker)")
                }
            }
            #expect(creating.count == 3)
        }
    }
}
