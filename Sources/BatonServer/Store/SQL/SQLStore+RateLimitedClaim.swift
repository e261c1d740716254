import Foundation

extension SQLStore {
    /// A share's rate-limit token and claim in one store call: on SQLite both statements in one write on the
    /// writer's thread, on PostgreSQL one statement (the claim's insert reads the token's `RETURNING`), so a share
    /// pays one hop for them instead of two. A key that already exists (a retry, a duplicate) takes the claim's
    /// usual path afterwards, its token already taken.
    func takeRateLimitTokenAndClaim(
        _ take: RateLimitTake, user: String, key: String, fingerprint: String, owner: String, leaseUntil: Date,
        now: Date
    ) async throws -> RateLimitedClaim {
        let engineName = dialect.engine
        let tokenArguments = Self.rateLimitTokenArguments(take, now: now)
        let claimArguments: [SQLValue] = [.text(user), .text(key), .text(fingerprint), .text(owner), .time(leaseUntil)]
        let outcome: Outcome
        switch engineName {
        case .sqlite:
            let tokenSQL = Self.rateLimitTokenSQL
            let insertSQL = Self.claimInsertSQL
            let insertArguments = claimArguments + [.time(now)]
            outcome = try await engine.write("takeRateLimitTokenAndClaim", transaction: false) {
                session throws(StoreError) -> Outcome in
                guard try !session.query(tokenSQL, tokenArguments).isEmpty else {
                    return .limited(try Self.retryAfter(take, now: now, session: session, engine: engineName))
                }
                return try session.query(insertSQL, insertArguments).isEmpty ? .exists : .claimed
            }
        case .postgres:
            let rows = try await engine.statement(
                "takeRateLimitTokenAndClaim", Self.tokenThenClaimSQL, tokenArguments + claimArguments)
            let (taken, claimed) = try decode("takeRateLimitTokenAndClaim", engineName) { () throws -> (Int64, Int64) in
                guard let row = rows.first else { throw StoreError(.engineFailure, engine: engineName, operation: "") }
                return (try row.integer(0), try row.integer(1))
            }
            if taken == 0 {
                outcome = .limited(try await retryAfter(take, now: now))
            } else {
                outcome = claimed == 0 ? .exists : .claimed
            }
        }
        switch outcome {
        case .limited(let seconds): return .limited(retryAfterSeconds: seconds)
        case .claimed: return .claim(.claimed)
        case .exists:
            return .claim(
                try await claim(
                    user: user, key: key, fingerprint: fingerprint, owner: owner, leaseUntil: leaseUntil, now: now))
        }
    }

    private enum Outcome: Sendable {
        case limited(Int)
        case claimed
        /// The token was taken; the key already has a record.
        case exists
    }

    /// The token (``rateLimitTokenSQL``, `$1`–`$4`), then, only if it was taken, the claim's insert of a new key
    /// (`$5` user, `$6` key, `$7` fingerprint, `$8` owner, `$9` lease end, `$4` now): one statement, one
    /// transaction. Answers the tokens taken (0 or 1) and the records inserted (0 or 1).
    static var tokenThenClaimSQL: String {
        """
        WITH token AS (\(rateLimitTokenSQL)),
        claimed AS (
            INSERT INTO idempotency_records (user_id, idempotency_key, fingerprint, state, lease_owner,
                lease_expires_at, created_at, updated_at)
            SELECT CAST($5 AS TEXT), CAST($6 AS TEXT), CAST($7 AS TEXT), 'in_progress', CAST($8 AS TEXT),
                CAST($9 AS BIGINT), CAST($4 AS BIGINT), CAST($4 AS BIGINT)
            WHERE EXISTS (SELECT 1 FROM token)
            ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING state)
        SELECT (SELECT COUNT(*) FROM token), (SELECT COUNT(*) FROM claimed)
        """
    }
}
