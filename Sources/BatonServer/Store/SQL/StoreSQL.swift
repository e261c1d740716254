/// Every statement the shared store logic (``SQLStore``) runs, as literal text built once.
///
/// A namespace, not a member of the generic ``SQLStore``: a generic type holds no stored statics, so a statement
/// there would be rebuilt on every call. Arguments are `$n` on both engines; the few spellings that differ between
/// SQLite and PostgreSQL are in ``SQLDialect``, whose two values are built once too. Each engine prepares a
/// statement once per connection, keyed by this text.
enum StoreSQL {
    // MARK: Idempotency

    /// Inserts a new in-progress record (`$1` user, `$2` key, `$3` fingerprint, `$4` owner, `$5` lease end, `$6`
    /// now); changes a row when inserted, none when the key has a record.
    static let claimInsert = RowChange(
        """
        INSERT INTO idempotency_records (user_id, idempotency_key, fingerprint, state, lease_owner,
            lease_expires_at, created_at, updated_at)
        VALUES ($1, $2, $3, 'in_progress', $4, $5, $6, $6)
        ON CONFLICT (user_id, idempotency_key) DO NOTHING
        """, returning: "state")

    /// The record of `$1` user and `$2` key, without locking it; ``SQLDialect/idempotencyRecordForUpdate`` locks.
    static let idempotencyRecord =
        "SELECT \(StoreRows.idempotencyColumns) FROM idempotency_records WHERE user_id = $1 AND idempotency_key = $2"

    /// Takes over a lapsed or failed record (`$3` owner, `$4` lease end, `$5` now).
    static let claimTakeOver = """
        UPDATE idempotency_records SET state = 'in_progress', lease_owner = $3,
            lease_expires_at = $4, updated_at = $5
        WHERE user_id = $1 AND idempotency_key = $2
        """

    static let extendLease = RowChange(
        """
        UPDATE idempotency_records SET lease_expires_at = $4
        WHERE user_id = $1 AND idempotency_key = $2 AND state = 'in_progress' AND lease_owner = $3
        """, returning: "state")

    static let complete = RowChange(
        """
        UPDATE idempotency_records SET state = 'completed', lease_owner = NULL, lease_expires_at = NULL,
            response_status = $4, sealed_response = $5, response_expires_at = $6, updated_at = $7
        WHERE user_id = $1 AND idempotency_key = $2 AND state = 'in_progress' AND lease_owner = $3
        """, returning: "state")

    static let fail = RowChange(
        """
        UPDATE idempotency_records SET state = 'failed', lease_owner = NULL, lease_expires_at = NULL,
            updated_at = $4
        WHERE user_id = $1 AND idempotency_key = $2 AND state = 'in_progress' AND lease_owner = $3
        """, returning: "state")

    static let release = RowChange(
        """
        DELETE FROM idempotency_records
        WHERE user_id = $1 AND idempotency_key = $2 AND state = 'in_progress' AND lease_owner = $3
        """, returning: "state")

    // MARK: Rate limits

    /// Takes a token from `$1` (`$2` capacity and the tokens in thousandths, `$3` per minute, `$4` now in
    /// milliseconds); changes the bucket's row when taken, none when the bucket is empty.
    ///
    /// Tokens are kept in thousandths, so a partial refill carries over; elapsed time never counts negative (an
    /// instance whose clock is behind neither refills nor moves `updated_at` back).
    static let rateLimitToken: RowChange = {
        let elapsed = "(CASE WHEN $4 > b.updated_at THEN $4 - b.updated_at ELSE 0 END)"
        let refilled =
            "(CASE WHEN b.tokens + \(elapsed) * $3 / 60 > $2 THEN $2 ELSE b.tokens + \(elapsed) * $3 / 60 END)"
        return RowChange(
            """
            INSERT INTO rate_limit_buckets AS b (bucket, tokens, updated_at)
            VALUES ($1, CAST($2 AS BIGINT) - 1000, CAST($4 AS BIGINT))
            ON CONFLICT (bucket) DO UPDATE SET tokens = \(refilled) - 1000,
                updated_at = CASE WHEN $4 > b.updated_at THEN $4 ELSE b.updated_at END
            WHERE \(refilled) >= 1000
            """, returning: "tokens")
    }()

    /// The bucket `$1` as stored, to tell how long until it holds a token again.
    static let rateLimitBucket = "SELECT tokens, updated_at FROM rate_limit_buckets WHERE bucket = $1"

    /// The token (``rateLimitToken``, `$1`–`$4`), then, only if it was taken, the claim's insert of a new key
    /// (`$5` user, `$6` key, `$7` fingerprint, `$8` owner, `$9` lease end, `$4` now): one statement, one
    /// transaction. Answers the tokens taken (0 or 1) and the records inserted (0 or 1). PostgreSQL only: SQLite
    /// runs the two statements in one write instead.
    static let tokenThenClaim = """
        WITH token AS (\(rateLimitToken.returning)),
        claimed AS (
            INSERT INTO idempotency_records (user_id, idempotency_key, fingerprint, state, lease_owner,
                lease_expires_at, created_at, updated_at)
            SELECT CAST($5 AS TEXT), CAST($6 AS TEXT), CAST($7 AS TEXT), 'in_progress', CAST($8 AS TEXT),
                CAST($9 AS BIGINT), CAST($4 AS BIGINT), CAST($4 AS BIGINT)
            WHERE EXISTS (SELECT 1 FROM token)
            ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING state)
        SELECT (SELECT COUNT(*) FROM token), (SELECT COUNT(*) FROM claimed)
        """

    // MARK: Connect sessions

    static let createConnectSession = """
        INSERT INTO connect_sessions (\(StoreRows.connectSessionColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (session_id) DO NOTHING RETURNING session_id
        """

    static let pendingConnectSessionCount =
        "SELECT COUNT(*) FROM connect_sessions WHERE user_id = $1 AND status = $2 AND created_at >= $3"

    static let connectSessionOfUser =
        "SELECT \(StoreRows.connectSessionColumns) FROM connect_sessions WHERE session_id = $1 AND user_id = $2"

    static let connectSession =
        "SELECT \(StoreRows.connectSessionColumns) FROM connect_sessions WHERE session_id = $1"

    static let updateConnectSession = """
        UPDATE connect_sessions SET status = $2, connection_id = COALESCE($3, connection_id), error = $4,
            updated_at = $5
        WHERE session_id = $1 AND updated_at <= $5 RETURNING session_id
        """

    // MARK: Verifications

    static let createVerification = """
        INSERT INTO verifications (\(StoreRows.verificationColumns)) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (verification_id) DO NOTHING RETURNING verification_id
        """

    static let verificationOfUser =
        "SELECT \(StoreRows.verificationColumns) FROM verifications WHERE verification_id = $1 AND user_id = $2"

    static let verification =
        "SELECT \(StoreRows.verificationColumns) FROM verifications WHERE verification_id = $1"

    static let latestVerification = """
        SELECT \(StoreRows.verificationColumns) FROM verifications WHERE user_id = $1 AND workflow = $2
        ORDER BY created_at DESC, verification_id DESC LIMIT 1
        """

    static let updateVerification = """
        UPDATE verifications SET status = $2, updated_at = $3
        WHERE verification_id = $1 AND updated_at <= $3 RETURNING verification_id
        """

    // MARK: Webhook events

    static let recordWebhookEvent = """
        INSERT INTO webhook_events (\(StoreRows.webhookEventColumns)) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (provider, webhook_id) DO NOTHING RETURNING webhook_id
        """

    static let markWebhookEventProcessed = """
        UPDATE webhook_events SET processed_at = $3, lease_owner = NULL, lease_expires_at = NULL
        WHERE provider = $1 AND webhook_id = $2 RETURNING webhook_id
        """

    // MARK: Catalog

    static let saveCatalogSnapshot = """
        INSERT INTO catalog_snapshots (id, body, etag, fetched_at) VALUES (1, $1, $2, $3)
        ON CONFLICT (id) DO UPDATE SET body = excluded.body, etag = excluded.etag,
            fetched_at = excluded.fetched_at
        """

    static let latestCatalogSnapshot = "SELECT body, etag, fetched_at FROM catalog_snapshots WHERE id = 1"

    static let saveMirroredAsset = """
        INSERT INTO mirrored_assets (\(StoreRows.mirroredAssetColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (asset_id) DO UPDATE SET item_id = excluded.item_id, sha256 = excluded.sha256,
            file_extension = excluded.file_extension, content_type = excluded.content_type,
            byte_count = excluded.byte_count, mirrored_at = excluded.mirrored_at
        """

    static let mirroredAssetByID = """
        SELECT \(StoreRows.mirroredAssetColumns) FROM mirrored_assets WHERE asset_id = $1
        ORDER BY mirrored_at DESC, asset_id LIMIT 1
        """

    static let mirroredAssetBySHA256 = """
        SELECT \(StoreRows.mirroredAssetColumns) FROM mirrored_assets WHERE sha256 = $1
        ORDER BY mirrored_at DESC, asset_id LIMIT 1
        """

    static let saveAssetBytes =
        "INSERT INTO asset_blobs (sha256, bytes, stored_at) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING"

    static let assetBytes = "SELECT bytes FROM asset_blobs WHERE sha256 = $1"

    // MARK: Job leases

    /// Inserts, or takes over a lapsed/own lease; a live lease of another owner is left alone.
    static let tryAcquireLease = """
        INSERT INTO job_leases (job, owner, lease_expires_at) VALUES ($1, $2, $3)
        ON CONFLICT (job) DO UPDATE SET owner = excluded.owner, lease_expires_at = excluded.lease_expires_at
        WHERE job_leases.lease_expires_at <= $4 OR job_leases.owner = excluded.owner
        RETURNING owner
        """

    static let releaseLease = "DELETE FROM job_leases WHERE job = $1 AND owner = $2 RETURNING owner"
}

/// A statement that inserts, updates or deletes at most one row, run only to learn whether it did
/// (``SQLSession/changed(_:_:)``).
///
/// Each engine runs the spelling it reads fastest. SQLite runs ``statement`` and counts the rows it changed:
/// a `RETURNING` clause costs SQLite a temporary table on every run (in a C loop of a share's three statements,
/// 43 `malloc`s and ~12 µs of CPU per share). PostgreSQL's pipeline answers rows, so it runs ``returning``.
struct RowChange: Sendable {
    /// The statement alone.
    let statement: String
    /// The statement with `RETURNING` one column: a row back when it changed one.
    let returning: String

    init(_ statement: String, returning column: String) {
        self.statement = statement
        self.returning = statement + "\nRETURNING " + column
    }
}
