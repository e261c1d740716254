import Foundation

extension SQLStore {
    // MARK: Rate limits

    func takeRateLimitToken(
        bucket: String, burst: Int, perMinute: Int, now: Date
    ) async throws -> RateLimitDecision {
        let take = RateLimitTake(bucket: bucket, burst: burst, perMinute: perMinute)
        let taken = try await engine.statement(
            "takeRateLimitToken", Self.rateLimitTokenSQL, Self.rateLimitTokenArguments(take, now: now))
        if !taken.isEmpty { return .allowed }
        return .limited(retryAfterSeconds: try await retryAfter(take, now: now))
    }

    /// Takes a token from `$1` (`$2` capacity and the tokens in thousandths, `$3` per minute, `$4` now in
    /// milliseconds); one row back when taken, none when the bucket is empty.
    ///
    /// Tokens are kept in thousandths, so a partial refill carries over; elapsed time never counts negative (an
    /// instance whose clock is behind neither refills nor moves `updated_at` back).
    static var rateLimitTokenSQL: String {
        let elapsed = "(CASE WHEN $4 > b.updated_at THEN $4 - b.updated_at ELSE 0 END)"
        let refilled =
            "(CASE WHEN b.tokens + \(elapsed) * $3 / 60 > $2 THEN $2 ELSE b.tokens + \(elapsed) * $3 / 60 END)"
        return """
            INSERT INTO rate_limit_buckets AS b (bucket, tokens, updated_at)
            VALUES ($1, CAST($2 AS BIGINT) - 1000, CAST($4 AS BIGINT))
            ON CONFLICT (bucket) DO UPDATE SET tokens = \(refilled) - 1000,
                updated_at = CASE WHEN $4 > b.updated_at THEN $4 ELSE b.updated_at END
            WHERE \(refilled) >= 1000
            RETURNING tokens
            """
    }

    static func rateLimitTokenArguments(_ take: RateLimitTake, now: Date) -> [SQLValue] {
        [.text(take.bucket), .integer(Int64(take.burst) * 1000), .integer(Int64(take.perMinute)), .time(now)]
    }

    /// Whole seconds until the empty bucket of `take` holds a token again (at least 1).
    func retryAfter(_ take: RateLimitTake, now: Date) async throws(StoreError) -> Int {
        let engineName = dialect.engine
        return try await engine.write("takeRateLimitToken", transaction: false) { db throws(StoreError) in
            try Self.retryAfter(take, now: now, session: db, engine: engineName)
        }
    }

    static func retryAfter(
        _ take: RateLimitTake, now: Date, session db: any SQLSession, engine engineName: StoreError.Engine
    ) throws(StoreError) -> Int {
        let capacity = Int64(take.burst) * 1000
        let rate = Int64(take.perMinute)
        let rows = try db.query(
            "SELECT tokens, updated_at FROM rate_limit_buckets WHERE bucket = $1", [.text(take.bucket)])
        let state = try decode("takeRateLimitToken", engineName) { () throws -> (Int64, Int64)? in
            try rows.first.map { (try $0.integer(0), try $0.integer(1)) }
        }
        guard let (tokens, updatedAt) = state else { return 1 }
        let nowMilliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let available = min(capacity, tokens + max(0, nowMilliseconds - updatedAt) * rate / 60)
        let missing = max(0, 1000 - available)
        // Thousandths of a token come back at `rate` per 60 000 ms: round the wait up to whole seconds.
        let seconds = (missing * 60 + rate * 1000 - 1) / (rate * 1000)
        return Int(max(1, seconds))
    }

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
            """
            DELETE FROM connect_sessions WHERE session_id IN (
                SELECT session_id FROM connect_sessions WHERE created_at <= $1 LIMIT $2)
            RETURNING session_id
            """, .time(now.addingTimeInterval(-retention.connectSessions)), batchSize: batchSize)
        let events = try await inBatches(
            "purgeRecords",
            """
            DELETE FROM webhook_events WHERE (provider, webhook_id) IN (
                SELECT provider, webhook_id FROM webhook_events
                WHERE processed_at IS NOT NULL AND received_at <= $1 LIMIT $2)
            RETURNING webhook_id
            """, .time(now.addingTimeInterval(-retention.webhookEvents)), batchSize: batchSize)
        let buckets = try await inBatches(
            "purgeRecords",
            """
            DELETE FROM rate_limit_buckets WHERE bucket IN (
                SELECT bucket FROM rate_limit_buckets WHERE updated_at <= $1 LIMIT $2)
            RETURNING bucket
            """, .time(now.addingTimeInterval(-retention.rateLimitBuckets)), batchSize: batchSize)
        // Only the newest verification of a user and workflow is ever read; older ones (a lost race) go.
        let verifications = try await inBatches(
            "purgeRecords",
            """
            DELETE FROM verifications WHERE verification_id IN (
                SELECT verification_id FROM verifications AS old WHERE old.created_at <= $1 AND EXISTS (
                    SELECT 1 FROM verifications AS newer
                    WHERE newer.user_id = old.user_id AND newer.workflow = old.workflow
                        AND (newer.created_at > old.created_at
                            OR (newer.created_at = old.created_at
                                AND newer.verification_id > old.verification_id)))
                LIMIT $2)
            RETURNING verification_id
            """, .time(now.addingTimeInterval(-retention.connectSessions)), batchSize: batchSize)
        var assets = (rows: 0, batches: 0)
        if let keepingAssets {
            // Which blobs are old is a read; the deletes go in writes of at most `batchSize` each.
            let cutoff = now.addingTimeInterval(-retention.assetBytes)
            let shas = try await engine.read("purgeRecords") { db throws(StoreError) in
                let old = try db.query("SELECT sha256 FROM asset_blobs WHERE stored_at <= $1", [.time(cutoff)])
                return try decode("purgeRecords", engineName) { try old.map { try $0.text(0) } }
            }
            let doomed = shas.filter { !keepingAssets.contains($0) }
            for start in stride(from: 0, to: doomed.count, by: max(1, batchSize)) {
                let chunk = Array(doomed[start..<min(doomed.count, start + max(1, batchSize))])
                assets.rows += try await engine.write("purgeRecords", transaction: true) { db throws(StoreError) in
                    var deleted = 0
                    for sha256 in chunk {
                        // Stored again since the read (a newer catalog): keep it.
                        deleted += try db.query(
                            "DELETE FROM asset_blobs WHERE sha256 = $1 AND stored_at <= $2 RETURNING sha256",
                            [.text(sha256), .time(cutoff)]
                        ).count
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
