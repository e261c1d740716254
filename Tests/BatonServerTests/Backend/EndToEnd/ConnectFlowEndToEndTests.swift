import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// BB bank connect over real HTTP: app → backend → sandbox BB → hosted journey → authoritative result.
@Suite("BB connect end to end")
struct ConnectFlowEndToEndTests {
    static let outcomes: [(StoreEngine, String, String, String?)] = BackendEngines.available.flatMap { engine in
        [("Ok", "ok", nil), ("Error", "error", "bank_unavailable"), ("Cancelled", "cancelled", nil)].map {
            (engine, $0.0, $0.1, $0.2)
        }
    }

    @Test("create → hosted journey ends → authoritative result", arguments: outcomes)
    func journeyOutcome(engine: StoreEngine, resultCode: String, status: String, error: String?) async throws {
        try await SandboxBackend.run(engine) { env in
            let created = try await env.app(.post, "/v2/connect-sessions", json: #"{"callback":"https"}"#)
            #expect(created.status == 201)
            #expect(created.headers["cache-control"] == "no-store")
            let body = jsonObject(created)
            let sessionID = try #require(body["sessionId"] as? String)
            let hostedURL = try #require(body["hostedUrl"] as? String)
            #expect(
                body["callback"] as? [String: String] == [
                    "kind": "https", "host": "app.example.com", "path": "/bb-callback",
                ])
            #expect(try await env.browse(hostedURL).status == 200)
            #expect(
                jsonObject(try await env.app(.get, "/v2/connect-sessions/\(sessionID)"))["status"] as? String
                    == "pending")

            let errorMember = error.map { #","error":"\#($0)""# } ?? ""
            let completion = try await env.complete(
                env.sandbox.bbOrigin, journey: sessionID, #"{"resultCode":"\#(resultCode)"\#(errorMember)}"#)
            #expect(completion.status == 200)
            // The redirect the browser would follow is a return link by BatonCore's rules; it is only a UX signal.
            let redirect = try #require(jsonObject(completion)["redirectUrl"] as? String)
            let parser = try ConnectReturnParser(registered: ["https://app.example.com/bb-callback"])
            guard case .accepted(let parsed) = parser.parse(redirect) else {
                Issue.record("not a return link")
                return
            }
            #expect(parsed.sessionID == sessionID)
            #expect(parsed.resultCode.rawValue == resultCode)

            let result = try await env.app(.get, "/v2/connect-sessions/\(sessionID)")
            #expect(result.status == 200)
            let state = jsonObject(result)
            #expect(state["sessionId"] as? String == sessionID)
            #expect(state["status"] as? String == status)
            #expect(state["error"] as? String == error)
            #expect((state["connectionId"] != nil) == (status == "ok"))
            #expect(state["hostedUrl"] == nil)

            // The webhook arrives too, and changes nothing further.
            await env.sandbox.waitForWebhooks()
            let stored = try #require(try await env.fixture.store.connectSession(id: sessionID, user: "alice"))
            #expect(stored.status.rawValue == status)
            #expect(env.fixture.backend.metrics.value("baton_webhook_verifications_total", ["bb", "accepted"]) == 1)

            // Another user never sees it.
            let other = try await env.app(.get, "/v2/connect-sessions/\(sessionID)", user: "bob")
            #expect(other.status == 404)
        }
    }

    @Test("closed without a return: the result is still read from BB", arguments: BackendEngines.available)
    func closedWithoutReturn(engine: StoreEngine) async throws {
        try await SandboxBackend.run(engine) { env in
            // Webhooks off: only the backend's own read of BB can learn the outcome.
            env.sandbox.setWebhookTargets(privue: nil, bb: nil)
            let created = jsonObject(try await env.app(.post, "/v2/connect-sessions", json: #"{"callback":"https"}"#))
            let sessionID = try #require(created["sessionId"] as? String)
            // The user finished at the bank, then closed the sheet before the redirect reached the app.
            _ = try await env.complete(env.sandbox.bbOrigin, journey: sessionID, #"{"resultCode":"Ok"}"#)
            let state = jsonObject(try await env.app(.get, "/v2/connect-sessions/\(sessionID)"))
            #expect(state["status"] as? String == "ok")
        }
    }

    @Test("abandoned: pending until BB expires it", arguments: BackendEngines.available)
    func expired(engine: StoreEngine) async throws {
        try await SandboxBackend.run(engine) { env in
            let created = jsonObject(
                try await env.app(.post, "/v2/connect-sessions", json: #"{"callback":"custom-scheme"}"#))
            let sessionID = try #require(created["sessionId"] as? String)
            #expect(created["callback"] as? [String: String] == ["kind": "custom-scheme", "scheme": "acmewallet"])
            #expect(
                jsonObject(try await env.app(.get, "/v2/connect-sessions/\(sessionID)"))["status"] as? String
                    == "pending")
            env.clock.advance(by: 31 * 60)
            let state = jsonObject(try await env.app(.get, "/v2/connect-sessions/\(sessionID)"))
            #expect(state["status"] as? String == "expired")
            let late = try await env.complete(env.sandbox.bbOrigin, journey: sessionID, #"{"resultCode":"Ok"}"#)
            #expect(late.status == 410)
        }
    }
}
