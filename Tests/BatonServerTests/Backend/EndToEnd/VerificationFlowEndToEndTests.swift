import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// Privue verification over real HTTP: app → backend → sandbox Privue → hosted journey → authoritative status.
@Suite("Privue verification end to end")
struct VerificationFlowEndToEndTests {
    static let workflow = "merchant-onboarding"

    static let outcomes: [(StoreEngine, String)] = BackendEngines.available.flatMap { engine in
        ["approved", "rejected", "needs_review"].map { (engine, $0) }
    }

    /// Opens the handoff as the in-app browser would: redeem the `#ticket=` fragment on the journey page.
    static func redeem(_ env: SandboxBackend, _ handoffURL: String) async throws -> [String: Any] {
        let parts = handoffURL.split(separator: "#", maxSplits: 1)
        let ticket = String(parts[1].dropFirst("ticket=".count))
        let response = try await env.transport.send(
            OutboundRequest(
                method: .post, url: String(parts[0]) + "/session", headers: ["content-type": "application/json"],
                body: Array(#"{"ticket":"\#(ticket)"}"#.utf8)))
        return (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    func handoff(_ env: SandboxBackend, user: String = "alice") async throws -> OutboundResponse {
        try await env.app(.post, "/v2/verification-handoffs", user: user, json: #"{"workflow":"\#(Self.workflow)"}"#)
    }

    func status(_ env: SandboxBackend, user: String = "alice") async throws -> OutboundResponse {
        try await env.app(.get, "/v2/verifications/\(Self.workflow)", user: user)
    }

    @Test("handoff → signed-in journey → submitted → authoritative status", arguments: outcomes)
    func journeyOutcome(engine: StoreEngine, outcome: String) async throws {
        try await SandboxBackend.run(engine) { env in
            #expect(try await status(env).status == 404)
            let created = try await handoff(env)
            #expect(created.status == 200)
            #expect(created.headers["cache-control"] == "no-store")
            let body = jsonObject(created)
            #expect(body["expiresInSeconds"] as? Int == 120)
            let url = try #require(body["url"] as? String)
            #expect(url.contains("/acme/\(Self.workflow)#ticket="))
            #expect(try await Self.redeem(env, url)["signedIn"] as? Bool == true)

            let started = jsonObject(try await status(env))
            let verificationID = try #require(started["verificationId"] as? String)
            #expect(started["status"] as? String == "in_progress")

            let completion = try await env.complete(
                env.sandbox.privueOrigin, journey: verificationID, #"{"status":"\#(outcome)"}"#)
            let redirect = try #require(jsonObject(completion)["redirectUrl"] as? String)
            let parser = try VerificationReturnParser(registered: ["https://app.example.com/kyc/done"])
            guard case .accepted(let landing) = parser.parse(redirect) else {
                Issue.record("not a return link")
                return
            }
            #expect(landing.verificationID == verificationID)

            let result = jsonObject(try await status(env))
            #expect(result["verificationId"] as? String == verificationID)
            #expect(result["status"] as? String == outcome)
            await env.sandbox.waitForWebhooks()
            #expect(
                try await env.fixture.store.verification(id: verificationID, user: "alice")?.status.rawValue == outcome)
            #expect(try await status(env, user: "bob").status == 404)
        }
    }

    @Test(
        "an expired handoff is not an error: a fresh one per request, one verification",
        arguments: BackendEngines.available)
    func expiredHandoff(engine: StoreEngine) async throws {
        try await SandboxBackend.run(engine) { env in
            let first = try #require(jsonObject(try await handoff(env))["url"] as? String)
            env.clock.advance(by: 121)
            #expect(try await Self.redeem(env, first)["reason"] as? String == "ticket_expired")
            let second = try #require(jsonObject(try await handoff(env))["url"] as? String)
            #expect(second != first)
            #expect(try await Self.redeem(env, second)["signedIn"] as? Bool == true)
            #expect(try await Self.redeem(env, second)["reason"] as? String == "ticket_used")
            let state = try await env.control(env.sandbox.privueOrigin, "/_sandbox/state")
            let verifications = (state["state"] as? [String: Any])?["verifications"] as? [[String: Any]] ?? []
            #expect(verifications.count == 1)
            #expect((verifications.first?["handoffs"] as? [Any])?.count == 2)
        }
    }

    @Test(
        "a stored verification Privue no longer knows (its state reset) is asked for again, not a 502",
        arguments: BackendEngines.available)
    func aVerificationPrivueForgotIsCreatedAgain(engine: StoreEngine) async throws {
        try await SandboxBackend.run(engine) { env in
            #expect(try await handoff(env).status == 200)
            let first = try #require(jsonObject(try await status(env))["verificationId"] as? String)
            let reset = try await env.transport.send(
                OutboundRequest(
                    method: .post, url: env.sandbox.privueOrigin + "/_sandbox/reset", headers: [:], body: []))
            #expect(reset.status == 204)
            env.clock.advance(by: 1)

            let again = try await handoff(env)
            #expect(again.status == 200)
            let url = try #require(jsonObject(again)["url"] as? String)
            #expect(try await Self.redeem(env, url)["signedIn"] as? Bool == true)
            let second = try #require(jsonObject(try await status(env))["verificationId"] as? String)
            #expect(second != first)
        }
    }

    @Test("closed without a return: status still comes from Privue", arguments: BackendEngines.available)
    func closedWithoutReturn(engine: StoreEngine) async throws {
        try await SandboxBackend.run(engine) { env in
            env.sandbox.setWebhookTargets(privue: nil, bb: nil)
            let url = try #require(jsonObject(try await handoff(env))["url"] as? String)
            _ = try await Self.redeem(env, url)
            let started = jsonObject(try await status(env))
            let id = try #require(started["verificationId"] as? String)
            // The user submitted, then the browser closed before the redirect reached the app.
            _ = try await env.complete(env.sandbox.privueOrigin, journey: id, #"{"status":"approved"}"#)
            #expect(jsonObject(try await status(env))["status"] as? String == "approved")
        }
    }

    @Test("unknown workflow and malformed bodies are refused", arguments: BackendEngines.available)
    func refusals(engine: StoreEngine) async throws {
        try await SandboxBackend.run(engine) { env in
            let unknown = try await env.app(.post, "/v2/verification-handoffs", json: #"{"workflow":"other"}"#)
            #expect(unknown.status == 404)
            let extra = try await env.app(
                .post, "/v2/verification-handoffs", json: #"{"workflow":"merchant-onboarding","user":"x"}"#)
            #expect(extra.status == 400)
            #expect(try await env.app(.get, "/v2/verifications/other").status == 404)
        }
    }
}
