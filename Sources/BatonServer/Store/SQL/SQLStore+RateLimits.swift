import Foundation

extension SQLStore {
    // MARK: Rate limits

    func takeRateLimitToken(
        bucket: String, burst: Int, perMinute: Int, now: Date
    ) async throws -> RateLimitDecision {
        let take = RateLimitTake(bucket: bucket, burst: burst, perMinute: perMinute)
        if try await engine.changed("takeRateLimitToken", StoreSQL.rateLimitToken, take.arguments(now: now)) {
            return .allowed
        }
        return .limited(retryAfterSeconds: try await engine.retryAfter(take, now: now))
    }

    /// A share's rate-limit token and claim in one store call (``SQLEngine/takeTokenThenInsertClaim(_:claim:now:)``),
    /// so a share pays one hop for them instead of two. A key that already exists (a retry, a duplicate) takes the
    /// claim's usual path afterwards, its token already taken.
    func takeRateLimitTokenAndClaim(
        _ take: RateLimitTake, user: String, key: String, fingerprint: String, owner: String, leaseUntil: Date,
        now: Date
    ) async throws -> RateLimitedClaim {
        let claimArguments: [SQLValue] = [.text(user), .text(key), .text(fingerprint), .text(owner), .time(leaseUntil)]
        switch try await engine.takeTokenThenInsertClaim(take, claim: claimArguments, now: now) {
        case .limited(let seconds): return .limited(retryAfterSeconds: seconds)
        case .claimed: return .claim(.claimed)
        case .exists:
            return .claim(
                try await claim(
                    user: user, key: key, fingerprint: fingerprint, owner: owner, leaseUntil: leaseUntil, now: now))
        }
    }
}

extension RateLimitTake {
    /// The arguments of ``StoreSQL/rateLimitToken``.
    func arguments(now: Date) -> [SQLValue] {
        [.text(bucket), .integer(Int64(burst) * 1000), .integer(Int64(perMinute)), .time(now)]
    }

    /// Whole seconds until this empty bucket holds a token again (at least 1), read on `session`.
    func retryAfter(now: Date, session: any SQLSession, engine: StoreError.Engine) throws(StoreError) -> Int {
        let capacity = Int64(burst) * 1000
        let rate = Int64(perMinute)
        let rows = try session.query(StoreSQL.rateLimitBucket, [.text(bucket)])
        let state = try decode("takeRateLimitToken", engine) { () throws -> (Int64, Int64)? in
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
}
