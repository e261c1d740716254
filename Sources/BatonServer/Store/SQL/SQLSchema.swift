import Foundation

/// Versioned schema migrations, shared by both engines and applied at open inside one write transaction.
///
/// Each entry is applied once, in order, and recorded in `schema_version`; opening an up-to-date database
/// changes nothing. Never edit a shipped migration: append a new one.
enum SQLSchema {
    /// Migrations in order; `\(blob)` is the engine's byte type. Built once per engine (``SQLDialect/migrations``).
    static func migrations(blob: String) -> [[String]] {
        [
            // 1: everything the backend keeps, per docs/CONTRACTS.md §2.
            [
                """
                CREATE TABLE idempotency_records (
                    user_id TEXT NOT NULL, idempotency_key TEXT NOT NULL, fingerprint TEXT NOT NULL,
                    state TEXT NOT NULL, lease_owner TEXT, lease_expires_at BIGINT,
                    response_status INTEGER, sealed_response \(blob), response_expires_at BIGINT,
                    created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
                    PRIMARY KEY (user_id, idempotency_key))
                """,
                "CREATE INDEX idempotency_records_created_at ON idempotency_records (created_at)",
                "CREATE INDEX idempotency_records_response_expires_at ON idempotency_records (response_expires_at)",
                """
                CREATE TABLE connect_sessions (
                    session_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, status TEXT NOT NULL,
                    connection_id TEXT, error TEXT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)
                """,
                "CREATE INDEX connect_sessions_user ON connect_sessions (user_id)",
                """
                CREATE TABLE verifications (
                    verification_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, workflow TEXT NOT NULL,
                    status TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)
                """,
                "CREATE INDEX verifications_user_workflow ON verifications (user_id, workflow, created_at)",
                """
                CREATE TABLE webhook_events (
                    provider TEXT NOT NULL, webhook_id TEXT NOT NULL, event_type TEXT NOT NULL,
                    payload \(blob) NOT NULL, received_at BIGINT NOT NULL, processed_at BIGINT,
                    lease_owner TEXT, lease_expires_at BIGINT, PRIMARY KEY (provider, webhook_id))
                """,
                "CREATE INDEX webhook_events_unprocessed ON webhook_events (processed_at, received_at)",
                """
                CREATE TABLE catalog_snapshots (
                    id INTEGER PRIMARY KEY CHECK (id = 1), body \(blob) NOT NULL, etag TEXT,
                    fetched_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE mirrored_assets (
                    asset_id TEXT PRIMARY KEY, item_id TEXT NOT NULL, sha256 TEXT NOT NULL,
                    file_extension TEXT NOT NULL, content_type TEXT NOT NULL, byte_count BIGINT NOT NULL,
                    mirrored_at BIGINT NOT NULL)
                """,
                "CREATE INDEX mirrored_assets_sha256 ON mirrored_assets (sha256)",
                "CREATE TABLE job_leases (job TEXT PRIMARY KEY, owner TEXT NOT NULL, lease_expires_at BIGINT NOT NULL)",
            ],
            // 2: mirrored image bytes, content-addressed, shared by every instance.
            [
                "CREATE TABLE asset_blobs (sha256 TEXT PRIMARY KEY, bytes \(blob) NOT NULL, stored_at BIGINT NOT NULL)"
            ],
            // 3: index only the records whose sealed response the purge erases: a claim (no response yet) no longer
            // writes an index entry, one page fewer per share.
            [
                "DROP INDEX idempotency_records_response_expires_at",
                """
                CREATE INDEX idempotency_records_sealed_expiry ON idempotency_records (response_expires_at)
                WHERE sealed_response IS NOT NULL
                """,
            ],
            // 4: per-user rate limits shared by every instance, and the indexes the retention purge deletes by.
            [
                "CREATE TABLE rate_limit_buckets (bucket TEXT PRIMARY KEY, tokens BIGINT NOT NULL, updated_at BIGINT NOT NULL)",
                "CREATE INDEX rate_limit_buckets_updated_at ON rate_limit_buckets (updated_at)",
                "CREATE INDEX connect_sessions_created_at ON connect_sessions (created_at)",
                "CREATE INDEX webhook_events_processed_received ON webhook_events (received_at) WHERE processed_at IS NOT NULL",
            ],
        ]
    }

    /// Applies the migrations `session` has not seen yet. Must run inside a write transaction that excludes
    /// other migrators (SQLite `BEGIN IMMEDIATE`; PostgreSQL adds an advisory transaction lock).
    static func migrate(_ session: any SQLSession, dialect: SQLDialect) throws(StoreError) {
        do {
            try session.execute(createVersionTable)
            let rows = try session.query(currentVersion, [])
            let current = try rows.first.flatMap { try $0.optionalInteger(0) } ?? 0
            let all = dialect.migrations
            guard current <= all.count else {
                // A newer Baton migrated this database; refuse rather than misread it.
                throw StoreError(.migrationFailed, engine: dialect.engine, operation: "migrate")
            }
            for (index, statements) in all.enumerated() where index + 1 > current {
                for statement in statements { try session.execute(statement) }
                _ = try session.query(recordVersion, [.integer(Int64(index + 1)), .time(Date())])
            }
        } catch let error as StoreError where error.code == .migrationFailed {
            throw error
        } catch let error as StoreError {
            throw StoreError(
                .migrationFailed, engine: dialect.engine, operation: "migrate", engineCode: error.engineCode)
        } catch {
            throw StoreError(.migrationFailed, engine: dialect.engine, operation: "migrate")
        }
    }

    /// The latest version this build knows.
    static let latestVersion = SQLDialect.sqlite.migrations.count

    private static let createVersionTable =
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)"
    private static let currentVersion = "SELECT MAX(version) FROM schema_version"
    private static let recordVersion = "INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)"
}
