import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// A stored event whose id the store cannot bind (NUL: PostgreSQL refuses it) is marked processed
/// and never blocks the events after it.
@Suite("Webhook event processor")
struct WebhookEventProcessorTests {
    @Test(arguments: TemporaryDatabase.postgresURL == nil ? [StoreEngine.sqlite] : [.sqlite, .postgres])
    func anIDWithNULNeitherThrowsNorBlocksLaterEvents(engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            #expect(
                try await store.createConnectSession(
                    ConnectSessionRecord(
                        id: "cs_1", user: "alice", status: .pending, createdAt: at(0), updatedAt: at(0))))
            let event = { (id: String, session: String, received: Date) in
                WebhookEventRecord(
                    provider: .bb, webhookID: id, eventType: "connect_session.updated",
                    payload: Array(
                        #"{"sessionId":"\#(session)","status":"ok","connectionId":"conn_1","error":null,"updatedAt":"2026-01-01T00:00:00Z"}"#
                            .utf8), receivedAt: received)
            }
            #expect(try await store.recordWebhookEvent(event("msg_poison", #"cs_1\u0000x"#, at(1))))
            #expect(try await store.recordWebhookEvent(event("msg_good", "cs_1", at(2))))
            let processor = WebhookEventProcessor(store: store, now: { at(10) })
            #expect(try await processor.drain(owner: "w") == 2)
            #expect(try await store.connectSession(id: "cs_1", user: "alice")?.status == .ok)
            #expect(
                try await store.claimWebhookEvents(owner: "w2", leaseUntil: at(200), now: at(100), limit: 10).isEmpty)
        }
    }
}
