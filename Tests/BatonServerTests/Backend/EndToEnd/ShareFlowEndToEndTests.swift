import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// Chia share over real HTTP: app → backend → sandbox Chia → the co-branded `phs_` journey.
@Suite("Chia share end to end")
struct ShareFlowEndToEndTests {
    static let body = Share.body(item: "cat_weight_care", version: "2025-06-01")

    @Test("share → one journey per key → replay → expired", arguments: BackendEngines.available)
    func share(engine: StoreEngine) async throws {
        try await SandboxBackend.run(engine) { env in
            let key = Share.key()
            let created = try await env.app(
                .post, "/v2/handoff-sessions", headers: ["idempotency-key": key], json: Self.body)
            #expect(created.status == 201)
            let url = try #require(jsonObject(created)["url"] as? String)
            #expect(url.hasPrefix(env.sandbox.chiaOrigin + "/h/phs_"))
            let page = try await env.browse(url)
            #expect(page.status == 200)

            let replay = try await env.app(
                .post, "/v2/handoff-sessions", headers: ["idempotency-key": key], json: Self.body)
            #expect(replay.body == created.body)
            #expect(replay.headers["idempotent-replayed"] == "true")

            let state = try await env.control(env.sandbox.chiaOrigin, "/_sandbox/state")
            let sessions = (state["state"] as? [String: Any])?["handoffSessions"] as? [[String: Any]] ?? []
            #expect(sessions.count == 1)
            #expect(sessions.first?["idempotencyKey"] as? String == Share.upstreamKey(key, env.fixture.configuration))

            env.clock.advance(by: 15 * 60)
            let expired = try await env.app(
                .post, "/v2/handoff-sessions", headers: ["idempotency-key": key], json: Self.body)
            #expect(expired.status == 410)
            #expect(expired.problemCode == "handoff_expired")

            let stale = try await env.app(
                .post, "/v2/handoff-sessions", headers: ["idempotency-key": Share.key()],
                json: Share.body(item: "cat_weight_care", version: "2025-01-01"))
            #expect(stale.status == 409)
        }
    }

    @Test("a provider 503 then a retry with the same key: one journey", arguments: BackendEngines.available)
    func retryAfterProviderFault(engine: StoreEngine) async throws {
        try await SandboxBackend.run(engine) { env in
            let fault = try await env.transport.send(
                OutboundRequest(
                    method: .post, url: env.sandbox.chiaOrigin + "/_sandbox/faults",
                    headers: ["content-type": "application/json"],
                    body: Array(
                        #"{"endpoint":"POST /v2/handoff-sessions","fault":"status","status":503,"count":2}"#.utf8)))
            #expect(fault.status == 201, "\(fault.bodyText)")
            let key = Share.key()
            let failed = try await env.app(
                .post, "/v2/handoff-sessions", headers: ["idempotency-key": key], json: Self.body)
            #expect(failed.status == 502)
            #expect(failed.headers["retry-after"] != nil)
            let retried = try await env.app(
                .post, "/v2/handoff-sessions", headers: ["idempotency-key": key], json: Self.body)
            #expect(retried.status == 201)
            let requests = try await env.control(env.sandbox.chiaOrigin, "/_sandbox/requests")
            let calls = (requests["requests"] as? [[String: Any]] ?? []).filter {
                $0["path"] as? String == "/v2/handoff-sessions"
            }
            #expect(calls.count == 3)
            #expect(
                Set(calls.compactMap { $0["idempotencyKey"] as? String })
                    == [Share.upstreamKey(key, env.fixture.configuration)])
        }
    }

    @Test(
        "another user sending the first user's key and body never gets the first user's journey",
        arguments: BackendEngines.available)
    func sameKeyAnotherUser(engine: StoreEngine) async throws {
        try await SandboxBackend.run(engine) { env in
            let key = Share.key()
            let first = try await env.app(
                .post, "/v2/handoff-sessions", user: "alice", headers: ["idempotency-key": key], json: Self.body)
            let second = try await env.app(
                .post, "/v2/handoff-sessions", user: "mallory", headers: ["idempotency-key": key], json: Self.body)
            #expect(first.status == 201 && second.status == 201)
            let aliceURL = try #require(jsonObject(first)["url"] as? String)
            #expect(jsonObject(second)["url"] as? String != aliceURL)
            #expect(second.headers["idempotent-replayed"] == nil)
            // The sandbox Chia dedupes per key, as the real one does per partner: two keys, two sessions.
            let state = try await env.control(env.sandbox.chiaOrigin, "/_sandbox/state")
            let sessions = (state["state"] as? [String: Any])?["handoffSessions"] as? [[String: Any]] ?? []
            #expect(sessions.count == 2)
            #expect(!sessions.contains { $0["idempotencyKey"] as? String == key })
        }
    }
}
