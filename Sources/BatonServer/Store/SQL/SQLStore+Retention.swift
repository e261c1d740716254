import Foundation

extension SQLStore {
    // MARK: Retention

    func purgeRecords(now: Date, retention: RecordRetention, keepingAssets: Set<String>?) async throws -> RecordPurge {
        try await purgeRecords(
            now: now, retention: retention, keepingAssets: keepingAssets, batchSize: Self.purgeBatchSize)
    }

    /// Purges as ``Store/purgeRecords(now:retention:keepingAssets:)`` does, each write deleting at most `batchSize`
    /// rows of one table, so the first purge after an upgrade of a long-running deployment never holds SQLite's only
    /// writer (or PostgreSQL row locks) for the whole backlog at once.
    func purgeRecords(
        now: Date, retention: RecordRetention, keepingAssets: Set<String>?, batchSize: Int
    ) async throws -> RecordPurge {
        let engineName = dialect.engine
        let sessions = try await inBatches(
            "purgeRecords",
            StoreSQL.purgeConnectSessions, .time(now.addingTimeInterval(-retention.connectSessions)),
            batchSize: batchSize)
        let events = try await inBatches(
            "purgeRecords",
            StoreSQL.purgeWebhookEvents, .time(now.addingTimeInterval(-retention.webhookEvents)), batchSize: batchSize)
        let buckets = try await inBatches(
            "purgeRecords",
            StoreSQL.purgeRateLimitBuckets, .time(now.addingTimeInterval(-retention.rateLimitBuckets)),
            batchSize: batchSize)
        // Only the newest verification of a user and workflow is ever read; older ones (a lost race) go.
        let verifications = try await inBatches(
            "purgeRecords",
            StoreSQL.purgeSupersededVerifications, .time(now.addingTimeInterval(-retention.connectSessions)),
            batchSize: batchSize)
        var assets = (rows: 0, batches: 0)
        if let keepingAssets {
            // Which blobs are old is a read; the deletes go in writes of at most `batchSize` each.
            let cutoff = now.addingTimeInterval(-retention.assetBytes)
            let shas = try await engine.read("purgeRecords") { db throws(StoreError) in
                let old = try db.query(StoreSQL.oldAssetBlobs, [.time(cutoff)])
                return try decode("purgeRecords", engineName) { try old.map { try $0.text(0) } }
            }
            let doomed = shas.filter { !keepingAssets.contains($0) }
            for start in stride(from: 0, to: doomed.count, by: max(1, batchSize)) {
                let chunk = Array(doomed[start..<min(doomed.count, start + max(1, batchSize))])
                assets.rows += try await engine.write("purgeRecords", transaction: true) { db throws(StoreError) in
                    var deleted = 0
                    for sha256 in chunk {
                        // Stored again since the read (a newer catalog): keep it.
                        deleted += try db.query(StoreSQL.deleteAssetBlob, [.text(sha256), .time(cutoff)]).count
                    }
                    return deleted
                }
                assets.batches += 1
                if Task.isCancelled { break }
                await Task.yield()
            }
        }
        return RecordPurge(
            connectSessions: sessions.rows, webhookEvents: events.rows, rateLimitBuckets: buckets.rows,
            verifications: verifications.rows, assetBytes: assets.rows,
            batches: sessions.batches + events.batches + buckets.batches + verifications.batches + assets.batches)
    }
}
