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
        let engineName = dialect.engine
        return try await engine.write("purgeRecords", transaction: true) { db throws(StoreError) in
            let sessions = try db.query(
                "DELETE FROM connect_sessions WHERE created_at <= $1 RETURNING session_id",
                [.time(now.addingTimeInterval(-retention.connectSessions))])
            let events = try db.query(
                """
                DELETE FROM webhook_events WHERE processed_at IS NOT NULL AND received_at <= $1
                RETURNING webhook_id
                """, [.time(now.addingTimeInterval(-retention.webhookEvents))])
            let buckets = try db.query(
                "DELETE FROM rate_limit_buckets WHERE updated_at <= $1 RETURNING bucket",
                [.time(now.addingTimeInterval(-retention.rateLimitBuckets))])
            // Only the newest verification of a user and workflow is ever read; older ones (a lost race) go.
            let verifications = try db.query(
                """
                DELETE FROM verifications WHERE created_at <= $1 AND EXISTS (
                    SELECT 1 FROM verifications AS newer
                    WHERE newer.user_id = verifications.user_id AND newer.workflow = verifications.workflow
                        AND (newer.created_at > verifications.created_at
                            OR (newer.created_at = verifications.created_at
                                AND newer.verification_id > verifications.verification_id)))
                RETURNING verification_id
                """, [.time(now.addingTimeInterval(-retention.connectSessions))])
            var assets = 0
            if let keepingAssets {
                let old = try db.query(
                    "SELECT sha256 FROM asset_blobs WHERE stored_at <= $1",
                    [.time(now.addingTimeInterval(-retention.assetBytes))])
                let shas = try decode("purgeRecords", engineName) { try old.map { try $0.text(0) } }
                for sha256 in shas where !keepingAssets.contains(sha256) {
                    assets += try db.query(
                        "DELETE FROM asset_blobs WHERE sha256 = $1 RETURNING sha256", [.text(sha256)]
                    ).count
                }
            }
            return RecordPurge(
                connectSessions: sessions.count, webhookEvents: events.count, rateLimitBuckets: buckets.count,
                verifications: verifications.count, assetBytes: assets)
        }
    }
}
