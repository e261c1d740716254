import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// A per-user token bucket in front of the provider-backed routes.
@Suite("Per-user rate limit on provider-backed routes")
struct RateLimitTests {
    static func configuration(rateLimit: String?) throws -> BackendConfiguration {
        let limit = rateLimit.map { #""rateLimit": \#($0),"# } ?? ""
        let file = """
            {
              \(limit)
              "development": {"allowLoopbackHTTP": true},
              "server": {"host": "127.0.0.1", "port": 8080, "publicOrigin": "https://partner.example"},
              "chia": {"apiOrigin": "http://127.0.0.1:9", "assetOrigin": "http://127.0.0.1:9",
                       "journeyHosts": ["chia.example"]},
              "privue": {"apiOrigin": "http://127.0.0.1:9", "returnURL": "https://app.example.com/kyc/done",
                         "workflows": ["merchant-onboarding"], "journeyHosts": ["127.0.0.1:9"]},
              "bb": {"apiOrigin": "http://127.0.0.1:9", "journeyHosts": ["127.0.0.1:9"],
                     "returnURLs": {"https": "https://app.example.com/bb-callback"}}
            }
            """
        return try BackendConfiguration.load(json: Data(file.utf8), environment: TestConfiguration.environment)
    }

    @Test(
        "past the burst a user gets 429 rate_limited with Retry-After, others do not, and the bucket refills",
        arguments: BackendEngines.available)
    func limitsOneUser(engine: StoreEngine) async throws {
        let configuration = try Self.configuration(
            rateLimit: #"{"burst": 2, "perMinute": 60, "createBurst": 2, "createPerMinute": 60}"#)
        let fixture = try await BackendFixture.make(engine, configuration: configuration)
        fixture.catalog.set(Share.item, TestCatalogProjection.share(version: Share.version))
        let chia = FakeChia(clock: fixture.clock)
        fixture.transport.on(.post, "/v2/handoff-sessions") { chia.handle($0) }
        try await fixture.run { api in
            #expect(try await api.share(key: Share.key()).status == 201)
            #expect(try await api.share(key: Share.key()).status == 201)
            let limited = try await api.share(key: Share.key())
            #expect(limited.status == 429)
            #expect(limited.problemCode == "rate_limited")
            #expect(limited.headers["retry-after"] == "1")
            #expect(chia.sessionCount == 2)
            // Creates draw on their own bucket: status reads draw on the general one, which is still full; the
            // catalog and other users draw on neither.
            #expect(try await api.send(.get, "/v2/connect-sessions/cs_1").status == 404)
            #expect(try await api.send(.get, "/v2/connect-sessions/cs_1").status == 404)
            #expect(try await api.send(.get, "/v2/connect-sessions/cs_1").status == 429)
            #expect(try await api.send(.get, "/v2/connect-sessions/cs_1", user: "bob").status == 404)
            #expect(try await api.send(.get, "/healthz", user: nil).status == 200)
            fixture.clock.advance(by: 1)
            #expect(try await api.share(key: Share.key()).status == 201)
            #expect(try await api.share(key: Share.key()).status == 429)
            // Each refusal is counted for the operator: the share, the poll, the share after the refill.
            let metrics = try await api.admin("/metrics")
            #expect(String(decoding: metrics.body, as: UTF8.self).contains("\nbaton_rate_limited_total 3\n"))
        }
    }

    @Test("a share takes its token with its claim: one store write fewer, 429 first whatever the body, nothing claimed")
    func aShareTakesItsTokenWithItsClaim() async throws {
        let configuration = try Self.configuration(rateLimit: #"{"createBurst": 1, "createPerMinute": 60}"#)
        let fixture = try await BackendFixture.make(.sqlite, configuration: configuration)
        fixture.catalog.set(Share.item, TestCatalogProjection.share(version: Share.version))
        let chia = FakeChia(clock: fixture.clock)
        fixture.transport.on(.post, "/v2/handoff-sessions") { chia.handle($0) }
        let writes = try #require(fixture.store as? SQLStore<SQLiteEngine>).engine.writes
        try await fixture.run { api throws in
            let before = writes.commits
            #expect(try await api.share(key: Share.key()).status == 201)
            // Token and claim in one write, then the completion (three when the middleware took the token alone).
            #expect(writes.commits - before == 2)
            // Limited: 429 before anything else, whatever the key or body, and nothing claimed.
            let key = Share.key()
            #expect(try await api.share(key: key).status == 429)
            #expect(try await fixture.store.idempotencyRecord(user: "alice", key: key) == nil)
            #expect(try await api.share(key: nil).status == 429)
            #expect(try await api.share(key: Share.key(), body: "{}").status == 429)
            // A refused request still takes its token.
            fixture.clock.advance(by: 1)
            #expect(try await api.share(key: Share.key(), body: "{}").status == 400)
            #expect(try await api.share(key: Share.key()).status == 429)
            #expect(chia.sessionCount == 1)
        }
    }

    @Test("switched off, nothing is limited")
    func disabled() async throws {
        let configuration = try Self.configuration(rateLimit: #"{"enabled": false, "burst": 1, "perMinute": 1}"#)
        let fixture = try await BackendFixture.make(.sqlite, configuration: configuration)
        try await fixture.run { api in
            for _ in 0..<5 {
                let read = try await api.send(.get, "/v2/connect-sessions/cs_1")
                #expect(read.status == 404)
            }
            let metrics = try await api.admin("/metrics")
            #expect(String(decoding: metrics.body, as: UTF8.self).contains("\nbaton_rate_limited_total 0\n"))
        }
    }

    @Test("on by default with generous defaults; bad values are configuration errors")
    func configurationDefaultsAndErrors() throws {
        let defaults = try Self.configuration(rateLimit: nil).rateLimit
        #expect(defaults == .init(enabled: true, burst: 60, perMinute: 60))
        #expect(defaults.createBurst == 10 && defaults.createPerMinute == 2 && defaults.maxPendingConnectSessions == 5)
        let errors = #expect(throws: ConfigurationErrors.self) {
            try Self.configuration(rateLimit: #"{"burst": 0, "perMinute": "many", "window": 5}"#)
        }
        #expect(
            Set(errors?.errors.map(\.field) ?? [])
                == ["rateLimit.burst", "rateLimit.perMinute", "rateLimit.window"])
    }

    /// With the defaults, the three create routes share a bucket of 10 refilled at 2 a minute (about 130 creates an
    /// hour, not 3,600 of each kind), while status reads keep the polling-sized one.
    @Test(arguments: BackendEngines.available)
    func theCreateRoutesShareASmallerBucketByDefault(engine: StoreEngine) async throws {
        let fixture = try await BackendFixture.make(engine, configuration: try Self.configuration(rateLimit: nil))
        fixture.transport.on(.post, "/v2/connect-sessions") { _ in
            ScriptedTransport.json(201, ["sessionId": "cs_\(UUID().uuidString)", "hostedUrl": "http://127.0.0.1:9/c"])
        }
        fixture.transport.on(.post, "/verifications") { _ in
            ScriptedTransport.json(201, ["id": "ver_1", "status": "pending"])
        }
        fixture.transport.on(.post, "/verifications/ver_1/handoff") { _ in
            ScriptedTransport.json(200, ["url": "http://127.0.0.1:9/j#ticket=t", "expires_in_seconds": 60])
        }
        try await fixture.run { api in
            var statuses: [Int] = []
            for index in 0..<11 {
                let response =
                    index.isMultiple(of: 2)
                    ? try await api.send(
                        .post, "/v2/verification-handoffs", body: #"{"workflow":"merchant-onboarding"}"#)
                    : try await api.send(
                        .post, "/v2/connect-sessions", user: "alice\(index)", body: #"{"callback":"https"}"#)
                statuses.append(response.status)
            }
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 201 }, "distinct users for connects: \(statuses)")
            for _ in 0..<4 {
                #expect(
                    try await api.send(.post, "/v2/verification-handoffs", body: #"{"workflow":"merchant-onboarding"}"#)
                        .status == 200)
            }
            let eleventh = try await api.send(
                .post, "/v2/verification-handoffs", body: #"{"workflow":"merchant-onboarding"}"#)
            #expect(eleventh.status == 429)
            #expect(eleventh.problemCode == "rate_limited")
            // The polling bucket is untouched.
            #expect(try await api.send(.get, "/v2/connect-sessions/cs_none").status == 404)
            fixture.clock.advance(by: 30)
            #expect(
                try await api.send(.post, "/v2/verification-handoffs", body: #"{"workflow":"merchant-onboarding"}"#)
                    .status == 200)
        }
    }

    /// A user with `maxPendingConnectSessions` sessions pending in the last hour gets 429 before BB is called; a
    /// session that finishes, or is older than an hour, stops counting.
    @Test(arguments: BackendEngines.available)
    func pendingConnectSessionsAreCappedPerUser(engine: StoreEngine) async throws {
        let configuration = try Self.configuration(
            rateLimit: #"{"createBurst": 100, "createPerMinute": 100, "maxPendingConnectSessions": 2}"#)
        let fixture = try await BackendFixture.make(engine, configuration: configuration)
        fixture.transport.on(.post, "/v2/connect-sessions") { _ in
            ScriptedTransport.json(201, ["sessionId": "cs_\(UUID().uuidString)", "hostedUrl": "http://127.0.0.1:9/c"])
        }
        try await fixture.run { api in
            func create(_ user: String = "alice") async throws -> OutboundResponse {
                try await api.send(.post, "/v2/connect-sessions", user: user, body: #"{"callback":"https"}"#)
            }
            let first = try await create()
            #expect(first.status == 201)
            #expect(try await create().status == 201)
            let capped = try await create()
            #expect(capped.status == 429)
            #expect(capped.problemCode == "rate_limited")
            #expect(capped.headers["retry-after"] != nil)
            #expect(fixture.transport.requests(.post, "/v2/connect-sessions").count == 2)
            #expect(try await create("bob").status == 201)
            // One finishes: room for one more.
            let id = try #require(jsonObject(first)["sessionId"] as? String)
            _ = try await fixture.store.updateConnectSession(
                id: id, status: .ok, connectionID: "conn_1", error: nil, updatedAt: fixture.clock.now)
            #expect(try await create().status == 201)
            #expect(try await create().status == 429)
            // An hour on, the pending ones no longer count.
            fixture.clock.advance(by: 3_601)
            #expect(try await create().status == 201)
        }
    }
}
