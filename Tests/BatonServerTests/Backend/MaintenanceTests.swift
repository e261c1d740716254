import Foundation
import Testing

@testable import BatonServer

/// The backend's maintenance round purges every table that would otherwise grow without bound.
@Suite("Maintenance purges unbounded tables")
struct MaintenanceTests {
    @Test(
        "old connect sessions, processed webhook events and idle rate-limit buckets go; recent ones stay",
        arguments: BackendEngines.available)
    func maintenancePurges(engine: StoreEngine) async throws {
        let fixture = try await BackendFixture.make(engine)
        let store = fixture.store
        let now = fixture.clock.now
        let day: TimeInterval = 24 * 60 * 60
        for (id, created) in [("cs_old", now - 31 * day), ("cs_recent", now - day)] {
            #expect(
                try await store.createConnectSession(
                    ConnectSessionRecord(id: id, user: "alice", status: .ok, createdAt: created, updatedAt: created)))
        }
        for (id, received) in [("msg_old", now - 8 * day), ("msg_recent", now - day)] {
            #expect(
                try await store.recordWebhookEvent(
                    WebhookEventRecord(
                        provider: .bb, webhookID: id, eventType: "connect_session.updated", payload: Array("{}".utf8),
                        receivedAt: received, processedAt: received)))
        }
        #expect(
            try await store.takeRateLimitToken(bucket: "user:idle", burst: 1, perMinute: 60, now: now - 2 * 3600)
                == .allowed)
        try await fixture.backend.runMaintenance()
        #expect(try await store.connectSession(id: "cs_old", user: "alice") == nil)
        #expect(try await store.connectSession(id: "cs_recent", user: "alice") != nil)
        #expect(
            try await store.recordWebhookEvent(
                WebhookEventRecord(
                    provider: .bb, webhookID: "msg_old", eventType: "connect_session.updated",
                    payload: Array("{}".utf8), receivedAt: now)))
        #expect(
            try await store.recordWebhookEvent(
                WebhookEventRecord(
                    provider: .bb, webhookID: "msg_recent", eventType: "connect_session.updated",
                    payload: Array("{}".utf8), receivedAt: now)) == false)
        let leftover = try await store.purgeRecords(
            now: now, retention: RecordRetention(rateLimitBuckets: 0), keepingAssets: nil)
        #expect(leftover.rateLimitBuckets == 0)
        await fixture.close()
    }

    @Test(
        "a purge that removed records logs one idempotency_purged line with its counts",
        arguments: BackendEngines.available)
    func purgeIsLogged(engine: StoreEngine) async throws {
        let fixture = try await BackendFixture.make(engine)
        let store = fixture.store
        let now = fixture.clock.now
        let purged = { fixture.logs.captured.filter { $0.contains(#""event":"idempotency_purged""#) } }
        try await fixture.backend.runMaintenance()
        #expect(purged().isEmpty)
        for (key, created) in [("old-1", now - 2 * 86_400), ("old-2", now - 2 * 86_400), ("recent", now - 60)] {
            _ = try await store.claim(
                user: "alice", key: key, fingerprint: "f", owner: "A", leaseUntil: created + 30, now: created)
        }
        try await fixture.backend.runMaintenance()
        let lines = purged()
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""records_deleted":2"#) == true)
        #expect(lines.first?.contains(#""responses_erased":0"#) == true)
        #expect(lines.first?.contains(#""duration_ms":"#) == true)
        await fixture.close()
    }
}
