import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// Every row of the idempotency table of CONTRACTS.md §2, on every store engine.
@Suite("POST /v2/handoff-sessions idempotency")
struct HandoffSessionIdempotencyTests {
    @Test("key missing or not a UUIDv4 → 400 idempotency_key_invalid", arguments: BackendEngines.available)
    func invalidKey(engine: StoreEngine) async throws {
        let (fixture, chia) = try await Share.fixture(engine)
        try await fixture.run { api in
            for key in [
                nil, "", "not-a-key", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "0190b1a2-7c3e-7def-8a12-3456789abcde",
                "3f2504e0-4f89-41d3-9a0c-0305e82c3301 ",
            ] as [String?] {
                let response = try await api.share(key: key)
                #expect(response.status == 400)
                #expect(response.problemCode == "idempotency_key_invalid")
            }
            #expect(chia.sessionCount == 0)
        }
    }

    @Test(
        "body malformed, unknown field, affirmed not true → 400 invalid_request",
        arguments: BackendEngines.available)
    func invalidBody(engine: StoreEngine) async throws {
        let (fixture, chia) = try await Share.fixture(engine)
        let bodies = [
            "", "{", "[]", "null",
            #"{"catalogItemId":"item-1","disclosureVersion":"disclosure-v3","affirmed":true}"#,
            #"{"catalogItemId":"item-1","disclosureVersion":"disclosure-v3","affirmed":false,"affirmedAt":"2025-06-15T10:00:00Z"}"#,
            #"{"catalogItemId":"item-1","disclosureVersion":"disclosure-v3","affirmed":1,"affirmedAt":"2025-06-15T10:00:00Z"}"#,
            #"{"catalogItemId":"item-1","disclosureVersion":"disclosure-v3","affirmed":"true","affirmedAt":"2025-06-15T10:00:00Z"}"#,
            #"{"catalogItemId":"item-1","disclosureVersion":"disclosure-v3","affirmed":true,"affirmedAt":"yesterday"}"#,
            #"{"catalogItemId":"","disclosureVersion":"disclosure-v3","affirmed":true,"affirmedAt":"2025-06-15T10:00:00Z"}"#,
            #"{"catalogItemId":"item-1","disclosureVersion":"disclosure-v3","affirmed":true,"affirmedAt":"2025-06-15T10:00:00Z","extra":1}"#,
        ]
        try await fixture.run { api in
            for body in bodies {
                let response = try await api.share(key: Share.key(), body: body)
                #expect(response.status == 400, "\(body)")
                #expect(response.problemCode == "invalid_request", "\(body)")
            }
            #expect(chia.sessionCount == 0)
        }
    }

    @Test(
        "a member named twice (even through an escape, even with the same value) → 400 invalid_request",
        arguments: BackendEngines.available)
    func duplicateMembers(engine: StoreEngine) async throws {
        let (fixture, chia) = try await Share.fixture(engine)
        let bodies = [
            #"{"catalogItemId":"item-1","disclosureVersion":"disclosure-v3","affirmed":true,"affirmedAt":"2025-06-15T10:00:00Z","affirmed":false}"#,
            #"{"catalogItemId":"item-1","disclosureVersion":"disclosure-v3","affirmed":true,"affirmedAt":"2025-06-15T10:00:00Z","affirmed":true}"#,
            #"{"catalogItemId":"item-1","disclosureVersion":"disclosure-v3","affirmed":true,"affirmedAt":"2025-06-15T10:00:00Z","affirm\u0065d":true}"#,
            #"{"catalogItemId":"item-2","catalogItemId":"item-1","disclosureVersion":"disclosure-v3","affirmed":true,"affirmedAt":"2025-06-15T10:00:00Z"}"#,
        ]
        try await fixture.run { api in
            for body in bodies {
                let response = try await api.share(key: Share.key(), body: body)
                #expect(response.status == 400, "\(body)")
                #expect(response.problemCode == "invalid_request", "\(body)")
            }
            #expect(chia.sessionCount == 0)
        }
    }

    @Test(
        "hidden, neutral_only or stale disclosure → 409 projection_changed, definitive",
        arguments: BackendEngines.available)
    func projectionChanged(engine: StoreEngine) async throws {
        let (fixture, chia) = try await Share.fixture(engine)
        fixture.catalog.set("neutral", TestCatalogProjection.neutral)
        try await fixture.run { api in
            let cases = [Share.body(item: "hidden"), Share.body(item: "neutral"), Share.body(version: "disclosure-v2")]
            for body in cases {
                let key = Share.key()
                let first = try await api.share(key: key, body: body)
                #expect(first.status == 409)
                #expect(first.problemCode == "projection_changed")
                let again = try await api.share(key: key, body: body)
                #expect(again.status == 409)
                #expect(again.headers["idempotent-replayed"] == "true")
            }
            #expect(chia.sessionCount == 0)
            #expect(fixture.transport.requests.isEmpty)
        }
    }

    @Test("first request → forwarded with the same key; 201 {url, expiresAt}", arguments: BackendEngines.available)
    func firstRequest(engine: StoreEngine) async throws {
        let (fixture, chia) = try await Share.fixture(engine)
        try await fixture.run(.live) { api in
            let key = Share.key()
            let response = try await api.share(key: key)
            #expect(response.status == 201)
            #expect(response.headers["cache-control"] == "no-store")
            let body = jsonObject(response)
            #expect(Set(body.keys) == ["url", "expiresAt"])
            #expect((body["url"] as? String)?.hasPrefix("https://chia.example/h/phs_") == true)
            #expect(body["expiresAt"] as? String == RFC3339.string(from: fixture.clock.now.addingTimeInterval(900)))
            let sent = try #require(fixture.transport.requests(.post, "/v2/handoff-sessions").first)
            // Chia gets the key derived for (alice, key), never the app's key itself.
            let derived = ProviderIdempotencyKeys(secret: fixture.configuration.idempotencySecret)
                .key(for: .chiaHandoffSession, user: "alice", appKey: try #require(IdempotencyKey(key)))
            #expect(sent.headers["idempotency-key"] == derived.rawValue)
            #expect(sent.headers["idempotency-key"] != key)
            #expect(sent.headers["authorization"] == "Bearer chia_test_SECRETKEY_0123456789")
            #expect(chia.sessionCount == 1)

            // Sealed at rest, bound to user and key, and never the plain URL.
            let record = try #require(try await fixture.store.idempotencyRecord(user: "alice", key: key))
            let sealed = try #require(record.sealedResponse)
            #expect(!String(decoding: sealed, as: UTF8.self).contains("phs_"))
            let sealer = ResponseSealer(current: fixture.configuration.sealingKey)
            #expect(sealer.open(sealed, user: "alice", key: key) == response.body)
            #expect(sealer.open(sealed, user: "mallory", key: key) == nil)
            #expect(record.responseExpiresAt == fixture.clock.now.addingTimeInterval(900))
        }
    }

    @Test(
        "same key, same body, finished → same 201 with Idempotent-Replayed; 410 after expiry",
        arguments: BackendEngines.available)
    func replayThenExpire(engine: StoreEngine) async throws {
        let (fixture, chia) = try await Share.fixture(engine)
        try await fixture.run { api in
            let key = Share.key()
            let first = try await api.share(key: key)
            let reordered =
                #"{"affirmedAt":"2025-06-15T10:00:00Z", "affirmed":true, "disclosureVersion":"disclosure-v3", "catalogItemId":"item-1"}"#
            let replay = try await api.share(key: key, body: reordered)
            #expect(replay.status == 201)
            #expect(replay.body == first.body)
            #expect(replay.headers["idempotent-replayed"] == "true")
            #expect(replay.headers["cache-control"] == "no-store")
            #expect(first.headers["idempotent-replayed"] == nil)
            #expect(chia.sessionCount == 1)
            #expect(fixture.transport.requests.count == 1)

            // Another user's identical key is another request entirely.
            let other = try await api.share(key: key, user: "bob")
            #expect(other.status == 201)
            #expect(other.headers["idempotent-replayed"] == nil)

            fixture.clock.advance(by: 900)
            let expired = try await api.share(key: key)
            #expect(expired.status == 410)
            #expect(expired.problemCode == "handoff_expired")

            // Maintenance purges the sealed response at expiry; the answer stays 410.
            try await fixture.backend.runMaintenance()
            let record = try #require(try await fixture.store.idempotencyRecord(user: "alice", key: key))
            #expect(record.sealedResponse == nil)
            #expect(try await api.share(key: key).status == 410)
            #expect(fixture.transport.requests.count == 2)
        }
    }

    @Test("same key, different body → 422 idempotency_key_reused", arguments: BackendEngines.available)
    func keyReused(engine: StoreEngine) async throws {
        let (fixture, chia) = try await Share.fixture(engine)
        try await fixture.run { api in
            let key = Share.key()
            #expect(try await api.share(key: key).status == 201)
            let reused = try await api.share(key: key, body: Share.body(affirmedAt: "2025-06-15T10:00:01Z"))
            #expect(reused.status == 422)
            #expect(reused.problemCode == "idempotency_key_reused")
            #expect(chia.sessionCount == 1)
        }
    }
}
