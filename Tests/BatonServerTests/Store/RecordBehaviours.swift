import BatonCore
import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// Connect-session, verification, webhook, catalog and job-lease behaviours of every `Store`.
enum RecordBehaviours {
    static func connectSessionsBelongToTheirUser(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            let session = ConnectSessionRecord(
                id: "cs_1", user: "alice", status: .pending, createdAt: at(0), updatedAt: at(0))
            #expect(try await store.createConnectSession(session))
            var stolen = session
            stolen.user = "mallory"
            #expect(try await store.createConnectSession(stolen) == false)
            #expect(try await store.connectSession(id: "cs_1", user: "alice") == session)
            #expect(try await store.connectSession(id: "cs_1", user: "mallory") == nil)
            #expect(try await store.connectSession(id: "cs_2", user: "alice") == nil)

            let ok = try await store.updateConnectSession(
                id: "cs_1", status: .ok, connectionID: "conn_9", error: nil, updatedAt: at(20))
            #expect(
                ok?.status == .ok && ok?.connectionID == "conn_9" && ok?.updatedAt == at(20) && ok?.user == "alice")
            // A late, older delivery does not overwrite what was learned later.
            let stale = try await store.updateConnectSession(
                id: "cs_1", status: .pending, connectionID: nil, error: nil, updatedAt: at(10))
            #expect(stale == ok)
            #expect(
                try await store.updateConnectSession(
                    id: "nope", status: .ok, connectionID: nil, error: nil, updatedAt: at(30)) == nil)
        }
    }

    static func verificationsBelongToTheirUserAndWorkflow(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            let first = VerificationRecord(
                id: "ver_1", user: "alice", workflow: "kyc", status: VerificationStatus(rawValue: "created"),
                createdAt: at(0), updatedAt: at(0))
            let second = VerificationRecord(
                id: "ver_2", user: "alice", workflow: "kyc", status: VerificationStatus(rawValue: "created"),
                createdAt: at(5), updatedAt: at(5))
            #expect(try await store.createVerification(first))
            #expect(try await store.createVerification(second))
            #expect(try await store.createVerification(first) == false)
            #expect(try await store.verification(id: "ver_1", user: "alice") == first)
            #expect(try await store.verification(id: "ver_1", user: "bob") == nil)
            #expect(try await store.latestVerification(user: "alice", workflow: "kyc") == second)
            #expect(try await store.latestVerification(user: "alice", workflow: "aml") == nil)
            let done = try await store.updateVerification(
                id: "ver_2", status: VerificationStatus(rawValue: "approved"), updatedAt: at(9))
            #expect(done?.status == VerificationStatus(rawValue: "approved") && done?.updatedAt == at(9))
            #expect(
                try await store.updateVerification(
                    id: "ver_2", status: VerificationStatus(rawValue: "pending"), updatedAt: at(8)) == done)
            #expect(
                try await store.updateVerification(
                    id: "ver_x", status: VerificationStatus(rawValue: "approved"), updatedAt: at(9)) == nil)
        }
    }

    static func webhookEventsAreStoredOnceAndHandedOutUnderLease(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            let event = { (id: String, at: Date) in
                WebhookEventRecord(
                    provider: .bb, webhookID: id, eventType: "connect_session.updated", payload: Array("{}".utf8),
                    receivedAt: at)
            }
            #expect(try await store.recordWebhookEvent(event("msg_1", at(0))))
            #expect(try await store.recordWebhookEvent(event("msg_1", at(1))) == false)
            #expect(try await store.recordWebhookEvent(event("msg_2", at(2))))
            var privue = event("msg_1", at(3))
            privue.provider = .privue
            #expect(try await store.recordWebhookEvent(privue))

            let batch = try await store.claimWebhookEvents(owner: "w1", leaseUntil: at(60), now: at(10), limit: 2)
            #expect(batch.map(\.webhookID) == ["msg_1", "msg_2"])
            #expect(batch.first == event("msg_1", at(0)))
            let rest = try await store.claimWebhookEvents(owner: "w2", leaseUntil: at(60), now: at(10), limit: 10)
            #expect(rest == [privue])
            #expect(try await store.claimWebhookEvents(owner: "w3", leaseUntil: at(90), now: at(20), limit: 10).isEmpty)

            #expect(try await store.markWebhookEventProcessed(provider: .bb, webhookID: "msg_1", processedAt: at(21)))
            #expect(
                try await store.markWebhookEventProcessed(provider: .bb, webhookID: "zzz", processedAt: at(21))
                    == false)
            // w1 died holding msg_2: once its lease lapses another worker gets it; processed events never return.
            let retried = try await store.claimWebhookEvents(owner: "w3", leaseUntil: at(120), now: at(60), limit: 10)
            #expect(Set(retried.map(\.webhookID)) == ["msg_1", "msg_2"])
            #expect(retried.allSatisfy { $0.provider == .privue || $0.webhookID == "msg_2" })
        }
    }

    static func catalogSnapshotAndMirroredAssets(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            #expect(try await store.latestCatalogSnapshot() == nil)
            let first = CatalogSnapshot(body: Array(#"{"items":[]}"#.utf8), etag: "\"v1\"", fetchedAt: at(0))
            try await store.saveCatalogSnapshot(first)
            #expect(try await store.latestCatalogSnapshot() == first)
            let second = CatalogSnapshot(body: Array(#"{"items":[1]}"#.utf8), etag: nil, fetchedAt: at(60))
            try await store.saveCatalogSnapshot(second)
            #expect(try await store.latestCatalogSnapshot() == second)

            let sha = String(repeating: "c", count: 64)
            let asset = MirroredAsset(
                assetID: "asset_1", itemID: "item_1", sha256: sha, fileExtension: "png", contentType: "image/png",
                byteCount: 1234, mirroredAt: at(5))
            try await store.saveMirroredAsset(asset)
            #expect(try await store.mirroredAsset(assetID: "asset_1") == asset)
            #expect(try await store.mirroredAsset(sha256: sha) == asset)
            #expect(try await store.mirroredAsset(sha256: String(repeating: "d", count: 64)) == nil)
            var replaced = asset
            replaced.sha256 = String(repeating: "e", count: 64)
            replaced.byteCount = 99
            try await store.saveMirroredAsset(replaced)
            #expect(try await store.mirroredAsset(assetID: "asset_1") == replaced)
            #expect(try await store.mirroredAsset(sha256: sha) == nil)

            #expect(try await store.assetBytes(sha256: sha) == nil)
            let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 255]
            try await store.saveAssetBytes(sha256: sha, bytes: bytes, now: at(5))
            // Content-addressed: a second save under the same hash keeps the first bytes.
            try await store.saveAssetBytes(sha256: sha, bytes: [1], now: at(6))
            #expect(try await store.assetBytes(sha256: sha) == bytes)
        }
    }

    static func jobLeasesAreExclusiveUntilTheyLapse(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            #expect(try await store.tryAcquireLease(job: "catalog-sync", owner: "A", until: at(60), now: at(0)))
            #expect(
                try await store.tryAcquireLease(job: "catalog-sync", owner: "B", until: at(70), now: at(10)) == false)
            #expect(try await store.tryAcquireLease(job: "sweeper", owner: "B", until: at(70), now: at(10)))
            #expect(try await store.tryAcquireLease(job: "catalog-sync", owner: "A", until: at(120), now: at(50)))
            #expect(
                try await store.tryAcquireLease(job: "catalog-sync", owner: "B", until: at(130), now: at(110)) == false)
            #expect(try await store.tryAcquireLease(job: "catalog-sync", owner: "B", until: at(180), now: at(120)))
            #expect(try await store.releaseLease(job: "catalog-sync", owner: "A") == false)
            #expect(try await store.releaseLease(job: "catalog-sync", owner: "B"))
            #expect(try await store.tryAcquireLease(job: "catalog-sync", owner: "C", until: at(200), now: at(121)))
        }
    }

    static func migrationsAreIdempotentAndDataSurvivesReopen(_ engine: StoreEngine) async throws {
        let database = try TemporaryDatabase(engine)
        defer { database.remove() }
        let first = try await database.open()
        _ = try await first.claim(user: "u", key: "k", fingerprint: "f", owner: "A", leaseUntil: at(30), now: at(0))
        await first.close()
        let second = try await database.open()
        let third = try await database.open()
        #expect(try await second.idempotencyRecord(user: "u", key: "k")?.leaseOwner == "A")
        #expect(try await third.idempotencyRecord(user: "u", key: "k")?.fingerprint == "f")
        await second.close()
        await third.close()
    }

    static func aClosedStoreThrowsClosed(_ engine: StoreEngine) async throws {
        let database = try TemporaryDatabase(engine)
        defer { database.remove() }
        let store = try await database.open()
        await store.close()
        await #expect(throws: StoreError.self) {
            _ = try await store.idempotencyRecord(user: "u", key: "k")
        }
        do {
            _ = try await store.claim(user: "u", key: "k", fingerprint: "f", owner: "A", leaseUntil: at(30), now: at(0))
            Issue.record("a closed store must throw")
        } catch let error as StoreError {
            #expect(error.code == .closed)
        }
    }
}
