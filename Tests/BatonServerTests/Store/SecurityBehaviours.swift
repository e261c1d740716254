import BatonCore
import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// Security behaviours of every `Store`: user ids that hold NUL, per-user rate-limit buckets and the
/// retention purge.
enum SecurityBehaviours {
    static func aUserIDWithNULNeverReachesAnotherUsersRows(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            let key = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
            let forged = "victim\u{0}x"
            #expect(
                try await store.claim(
                    user: "victim", key: key, fingerprint: "f1", owner: "o1", leaseUntil: at(30), now: at(0))
                    == .claimed)
            #expect(
                try await store.createConnectSession(
                    ConnectSessionRecord(
                        id: "cs_1", user: "victim", status: .pending, createdAt: at(0), updatedAt: at(0))
                ))
            switch engine {
            case .sqlite:
                // Bound with its length, the id is its own user: nothing of "victim" is visible or writable.
                #expect(try await store.connectSession(id: "cs_1", user: forged) == nil)
                #expect(try await store.idempotencyRecord(user: forged, key: key) == nil)
                #expect(
                    try await store.claim(
                        user: forged, key: key, fingerprint: "f2", owner: "o2", leaseUntil: at(30), now: at(1))
                        == .claimed)
                #expect(try await store.idempotencyRecord(user: forged, key: key)?.user == forged)
                #expect(try await store.idempotencyRecord(user: "victim", key: key)?.fingerprint == "f1")
            case .postgres:
                // libpq would send "victim": the store refuses the argument before it is bound.
                for attempt in 0..<3 {
                    let error = await #expect(throws: StoreError.self) {
                        switch attempt {
                        case 0: _ = try await store.connectSession(id: "cs_1", user: forged)
                        case 1: _ = try await store.idempotencyRecord(user: forged, key: key)
                        default:
                            _ = try await store.claim(
                                user: forged, key: key, fingerprint: "f2", owner: "o2", leaseUntil: at(30), now: at(1))
                        }
                    }
                    #expect(error?.code == .invalidArgument)
                    #expect(error.map { !"\($0)".contains("victim") } ?? false)
                }
                #expect(try await store.idempotencyRecord(user: "victim", key: key)?.fingerprint == "f1")
            }
        }
    }

    static func rateLimitBucketsRefillAndAreSharedByInstances(_ engine: StoreEngine) async throws {
        let database = try TemporaryDatabase(engine)
        defer { database.remove() }
        let first = try await database.open()
        let second = try await database.open()
        do {
            try await rateLimits(first, second)
        } catch {
            await first.close()
            await second.close()
            throw error
        }
        await first.close()
        await second.close()
    }

    private static func rateLimits(_ first: any Store, _ second: any Store) async throws {
        func take(_ store: any Store, _ bucket: String = "user:alice", at time: Date) async throws -> RateLimitDecision
        {
            try await store.takeRateLimitToken(bucket: bucket, burst: 3, perMinute: 60, now: time)
        }
        // A fresh bucket holds the burst, counted across both instances.
        #expect(try await take(first, at: at(0)) == .allowed)
        #expect(try await take(second, at: at(0)) == .allowed)
        #expect(try await take(first, at: at(0)) == .allowed)
        #expect(try await take(second, at: at(0)) == .limited(retryAfterSeconds: 1))
        #expect(try await take(first, "user:bob", at: at(0)) == .allowed)
        // 60 per minute: one more after a second, and never more than the burst after a long pause.
        #expect(try await take(first, at: at(0.5)) == .limited(retryAfterSeconds: 1))
        #expect(try await take(second, at: at(1)) == .allowed)
        #expect(try await take(first, at: at(1)) == .limited(retryAfterSeconds: 1))
        for _ in 0..<3 { #expect(try await take(first, at: at(100)) == .allowed) }
        #expect(try await take(second, at: at(100)) == .limited(retryAfterSeconds: 1))
        // A clock behind the last use neither refills nor rewinds the bucket.
        #expect(try await take(first, at: at(50)) == .limited(retryAfterSeconds: 1))
        // A slow refill says how long to wait.
        #expect(
            try await first.takeRateLimitToken(bucket: "user:carol", burst: 1, perMinute: 6, now: at(0)) == .allowed)
        #expect(
            try await first.takeRateLimitToken(bucket: "user:carol", burst: 1, perMinute: 6, now: at(0))
                == .limited(retryAfterSeconds: 10))
        #expect(
            try await first.takeRateLimitToken(bucket: "user:carol", burst: 1, perMinute: 6, now: at(4))
                == .limited(retryAfterSeconds: 6))
        // Concurrent requests on both instances: exactly the burst gets through.
        let outcomes = try await withThrowingTaskGroup(of: RateLimitDecision.self) { group in
            for index in 0..<12 {
                group.addTask {
                    try await (index.isMultiple(of: 2) ? first : second).takeRateLimitToken(
                        bucket: "user:dave", burst: 5, perMinute: 1, now: at(0))
                }
            }
            return try await group.reduce(into: [RateLimitDecision]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .allowed }.count == 5)
    }

    static func purgeDeletesOldSessionsProcessedEventsAndIdleBuckets(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            let day: TimeInterval = 24 * 60 * 60
            for (id, created) in [("cs_old", at(0)), ("cs_new", at(29 * day))] {
                #expect(
                    try await store.createConnectSession(
                        ConnectSessionRecord(
                            id: id, user: "alice", status: .ok, createdAt: created, updatedAt: created)))
            }
            let event = { (id: String, received: Date, processed: Date?) in
                WebhookEventRecord(
                    provider: .bb, webhookID: id, eventType: "connect_session.updated", payload: Array("{}".utf8),
                    receivedAt: received, processedAt: processed)
            }
            #expect(try await store.recordWebhookEvent(event("msg_old", at(0), at(1))))
            #expect(try await store.recordWebhookEvent(event("msg_unprocessed", at(0), nil)))
            #expect(try await store.recordWebhookEvent(event("msg_new", at(25 * day), at(25 * day))))
            #expect(
                try await store.takeRateLimitToken(bucket: "user:idle", burst: 1, perMinute: 1, now: at(0)) == .allowed)
            let busy = 30 * day - 30
            #expect(
                try await store.takeRateLimitToken(bucket: "user:busy", burst: 1, perMinute: 1, now: at(busy))
                    == .allowed)

            for (id, user, created) in [("ver_1", "alice", at(0)), ("ver_2", "alice", at(5)), ("ver_3", "bob", at(0))] {
                #expect(
                    try await store.createVerification(
                        VerificationRecord(
                            id: id, user: user, workflow: "kyc", status: VerificationStatus(rawValue: "approved"),
                            createdAt: created,
                            updatedAt: created)))
            }
            for (sha, stored) in [("aa", at(0)), ("bb", at(0)), ("cc", at(29 * day))] {
                try await store.saveAssetBytes(sha256: sha, bytes: [1, 2, 3], now: stored)
            }

            let purged = try await store.purgeRecords(
                now: at(30 * day), retention: RecordRetention(), keepingAssets: ["aa"])
            #expect(
                purged
                    == RecordPurge(
                        connectSessions: 1, webhookEvents: 1, rateLimitBuckets: 1, verifications: 1, assetBytes: 1,
                        batches: 5))
            #expect(try await store.verification(id: "ver_1", user: "alice") == nil)
            #expect(try await store.latestVerification(user: "alice", workflow: "kyc")?.id == "ver_2")
            #expect(try await store.latestVerification(user: "bob", workflow: "kyc")?.id == "ver_3")
            #expect(try await store.assetBytes(sha256: "aa") != nil)
            #expect(try await store.assetBytes(sha256: "bb") == nil)
            #expect(try await store.assetBytes(sha256: "cc") != nil)
            #expect(try await store.connectSession(id: "cs_old", user: "alice") == nil)
            #expect(try await store.connectSession(id: "cs_new", user: "alice") != nil)
            // The unprocessed event is still handed out; the processed old one is gone (a redelivery is new again).
            let pending = try await store.claimWebhookEvents(
                owner: "w", leaseUntil: at(31 * day), now: at(30 * day), limit: 10)
            #expect(pending.map(\.webhookID) == ["msg_unprocessed"])
            #expect(try await store.recordWebhookEvent(event("msg_old", at(30 * day), nil)))
            #expect(try await store.recordWebhookEvent(event("msg_new", at(30 * day), nil)) == false)
            // The busy bucket is still empty; the idle one was full anyway.
            #expect(
                try await store.takeRateLimitToken(bucket: "user:busy", burst: 1, perMinute: 1, now: at(30 * day))
                    == .limited(retryAfterSeconds: 30))
            #expect(
                try await store.purgeRecords(now: at(40 * day), retention: RecordRetention(), keepingAssets: nil)
                    == RecordPurge(connectSessions: 0, webhookEvents: 1, rateLimitBuckets: 1, batches: 4))
            #expect(try await store.assetBytes(sha256: "cc") != nil)
        }
    }

    /// The retention purge of connect sessions, webhook events, buckets, superseded verifications and image bytes
    /// goes in writes of at most one batch each, like the idempotency purge, so a backlog never holds the writer in one
    /// transaction; what it deletes is the same.
    static func theRecordPurgeGoesInBatches(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            let day: TimeInterval = 24 * 60 * 60
            for index in 0..<25 {
                #expect(
                    try await store.createConnectSession(
                        ConnectSessionRecord(
                            id: "cs_\(index)", user: "alice", status: .ok, createdAt: at(0), updatedAt: at(0))))
            }
            for index in 0..<12 {
                #expect(
                    try await store.recordWebhookEvent(
                        WebhookEventRecord(
                            provider: .bb, webhookID: "msg_\(index)", eventType: "connect_session.updated",
                            payload: Array("{}".utf8), receivedAt: at(0), processedAt: at(1))))
            }
            for index in 0..<7 {
                _ = try await store.takeRateLimitToken(bucket: "user:\(index)", burst: 1, perMinute: 1, now: at(0))
            }
            for index in 0..<23 {
                try await store.saveAssetBytes(sha256: "sha\(index)", bytes: [1], now: at(0))
            }
            try await store.saveAssetBytes(sha256: "kept", bytes: [1], now: at(0))
            let purging = try #require(store as? any BatchedIdempotencyPurge)
            let writes = (store as? SQLStore<SQLiteEngine>)?.engine.writes
            let before = writes?.commits ?? 0

            let purge = try await purging.purgeRecords(
                now: at(31 * day), retention: RecordRetention(), keepingAssets: ["kept"], batchSize: 10)

            // Sessions 10+10+5, events 10+2, buckets 7, verifications none (one empty batch), images 10+10+3.
            #expect(
                purge
                    == RecordPurge(
                        connectSessions: 25, webhookEvents: 12, rateLimitBuckets: 7, verifications: 0,
                        assetBytes: 23, batches: 3 + 2 + 1 + 1 + 3))
            // On SQLite each batch is a write of its own through the one writer.
            if let writes { #expect(writes.commits - before == 10) }
            #expect(try await store.connectSession(id: "cs_24", user: "alice") == nil)
            #expect(try await store.assetBytes(sha256: "sha22") == nil)
            #expect(try await store.assetBytes(sha256: "kept") != nil)
            #expect(
                try await purging.purgeRecords(
                    now: at(31 * day), retention: RecordRetention(), keepingAssets: ["kept"], batchSize: 10)
                    == RecordPurge(connectSessions: 0, webhookEvents: 0, rateLimitBuckets: 0, batches: 4))
        }
    }
}
