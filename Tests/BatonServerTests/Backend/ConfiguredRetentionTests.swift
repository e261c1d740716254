import Foundation
import Testing

@testable import BatonServer

/// Maintenance purges by the configuration's `retention`, not by built-in defaults: with short configured values,
/// a record just older than its retention goes and one just younger stays.
@Suite("Maintenance uses the configured retention")
struct ConfiguredRetentionTests {
    static func configuration() throws -> BackendConfiguration {
        var configuration = try TestConfiguration.make()
        configuration.retention = BackendConfiguration.Retention(
            idempotencyRecords: 900,
            records: RecordRetention(connectSessions: 1_800, webhookEvents: 600, rateLimitBuckets: 60, assetBytes: 600),
            maintenanceInterval: .seconds(15))
        return configuration
    }

    @Test(
        "idempotency records, connect sessions and webhook events just past the configured retention go",
        arguments: BackendEngines.available)
    func purgesByConfiguredRetention(engine: StoreEngine) async throws {
        let fixture = try await BackendFixture.make(engine, configuration: Self.configuration())
        let store = fixture.store
        let now = fixture.clock.now
        for (key, created) in [("old", now - 960), ("young", now - 840)] {
            _ = try await store.claim(
                user: "alice", key: key, fingerprint: "f", owner: "A", leaseUntil: created + 30, now: created)
        }
        for (id, created) in [("cs_old", now - 1_860), ("cs_young", now - 1_740)] {
            #expect(
                try await store.createConnectSession(
                    ConnectSessionRecord(id: id, user: "alice", status: .ok, createdAt: created, updatedAt: created)))
        }
        for (id, received) in [("msg_old", now - 660), ("msg_young", now - 540)] {
            #expect(try await store.recordWebhookEvent(Self.event(id, at: received)))
        }
        try await fixture.backend.runMaintenance()

        let purged = fixture.logs.captured.filter { $0.contains(#""event":"idempotency_purged""#) }
        #expect(purged.count == 1)
        #expect(purged.first?.contains(#""records_deleted":1"#) == true)
        #expect(try await store.connectSession(id: "cs_old", user: "alice") == nil)
        #expect(try await store.connectSession(id: "cs_young", user: "alice") != nil)
        // A recorded event id is refused again (false); a purged one is new (true).
        #expect(try await store.recordWebhookEvent(Self.event("msg_old", at: now)))
        #expect(try await store.recordWebhookEvent(Self.event("msg_young", at: now)) == false)
        await fixture.close()
    }

    static func event(_ id: String, at received: Date) -> WebhookEventRecord {
        WebhookEventRecord(
            provider: .bb, webhookID: id, eventType: "connect_session.updated", payload: Array("{}".utf8),
            receivedAt: received, processedAt: received)
    }
}
