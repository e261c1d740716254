import Foundation

/// How an engine runs statements for the shared store logic (``SQLStore``): on which connection, in which kind of
/// transaction, and the few steps each engine does its own way. Each engine confines its connections to their own
/// threads.
protocol SQLEngine: Sendable {
    /// The SQL spelling differences the shared statements need.
    var dialect: SQLDialect { get }

    /// Runs `body` on a connection that may write. With `transaction`, inside the engine's write transaction
    /// (`BEGIN IMMEDIATE` on SQLite, `BEGIN` on PostgreSQL); without, each statement commits on its own.
    func write<T: Sendable>(
        _ operation: String, transaction: Bool, _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
    ) async throws(StoreError) -> T

    /// Runs `body` as ``write(_:transaction:_:)`` without a transaction, as housekeeping (a purge's batch): it may
    /// wait until the writes queued meanwhile have run, and never holds them up beyond itself. The default is a plain
    /// write (PostgreSQL has no single writer to yield).
    func housekeepingWrite<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
    ) async throws(StoreError) -> T

    /// Runs read-only statements on any connection (a reader where the engine has them).
    func read<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
    ) async throws(StoreError) -> T

    /// Runs one statement that may write, committed on its own, and returns its rows. PostgreSQL sends it on a
    /// pipelined connection without a thread hop; the default runs it through ``write(_:transaction:_:)``.
    func statement(_ operation: String, _ sql: String, _ arguments: [SQLValue]) async throws(StoreError) -> [SQLRow]

    /// Runs one ``RowChange`` as ``statement(_:_:_:)`` runs a statement, and answers whether it changed a row.
    /// PostgreSQL sends its `RETURNING` spelling on a pipelined connection; the default runs it through
    /// ``write(_:transaction:_:)`` (``SQLSession/changed(_:_:)``).
    func changed(_ operation: String, _ change: RowChange, _ arguments: [SQLValue]) async throws(StoreError) -> Bool

    /// Takes a rate-limit token and, only if it was taken, inserts a new in-progress claim, in one trip to the
    /// engine: a share pays one hop for both. `claim` is `[user, key, fingerprint, owner, lease end]`.
    func takeTokenThenInsertClaim(
        _ take: RateLimitTake, claim: [SQLValue], now: Date
    ) async throws(StoreError) -> TokenThenClaim

    /// Closes every connection and stops their threads.
    func close() async
}

/// What ``SQLEngine/takeTokenThenInsertClaim(_:claim:now:)`` did.
enum TokenThenClaim: Sendable, Hashable {
    /// The bucket was empty: no token, no claim; it holds one again in this many whole seconds.
    case limited(retryAfterSeconds: Int)
    /// The token was taken and the key, new, claimed.
    case claimed
    /// The token was taken; the key already has a record (the claim's usual path decides what it means).
    case exists
}

extension SQLEngine {
    func housekeepingWrite<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        try await write(operation, transaction: false, body)
    }

    func statement(_ operation: String, _ sql: String, _ arguments: [SQLValue]) async throws(StoreError) -> [SQLRow] {
        try await write(operation, transaction: false) { session throws(StoreError) in
            try session.query(sql, arguments)
        }
    }

    func changed(_ operation: String, _ change: RowChange, _ arguments: [SQLValue]) async throws(StoreError) -> Bool {
        try await write(operation, transaction: false) { session throws(StoreError) in
            try session.changed(change, arguments)
        }
    }

    /// Whole seconds until the empty bucket of `take` holds a token again, read in a write of its own.
    func retryAfter(_ take: RateLimitTake, now: Date) async throws(StoreError) -> Int {
        let engineName = dialect.engine
        return try await write("takeRateLimitToken", transaction: false) { session throws(StoreError) in
            try take.retryAfter(now: now, session: session, engine: engineName)
        }
    }
}

/// The few places where SQLite and PostgreSQL SQL differ, and the statements built from them, once per engine.
/// Statements are otherwise shared (``StoreSQL``), with `$n` arguments.
struct SQLDialect: Sendable {
    /// Starts a read-modify-write transaction that takes the write lock at once.
    let beginWrite: String
    /// Which engine, for errors.
    let engine: StoreError.Engine
    /// ``StoreSQL/idempotencyRecord``, locking the row it reads until commit.
    let idempotencyRecordForUpdate: String
    /// Leases the oldest unprocessed webhook events (`$1` owner, `$2` lease end, `$3` now, `$4` at most), skipping
    /// rows other transactions hold where the engine can.
    let claimWebhookEvents: String
    /// ``SQLSchema``'s migrations with this engine's byte type.
    let migrations: [[String]]

    /// - Parameters:
    ///   - lockRows: appended to a `SELECT` that locks the rows it reads until commit.
    ///   - skippingLocked: appended to a `SELECT` that locks what it reads and skips rows other transactions hold.
    ///   - blobType: the column type for bytes.
    private init(
        beginWrite: String, lockRows: String, skippingLocked: String, blobType: String, engine: StoreError.Engine
    ) {
        self.beginWrite = beginWrite
        self.engine = engine
        idempotencyRecordForUpdate = StoreSQL.idempotencyRecord + lockRows
        claimWebhookEvents = """
            UPDATE webhook_events SET lease_owner = $1, lease_expires_at = $2
            WHERE (provider, webhook_id) IN (
                SELECT provider, webhook_id FROM webhook_events
                WHERE processed_at IS NULL AND (lease_expires_at IS NULL OR lease_expires_at <= $3)
                ORDER BY received_at, provider, webhook_id LIMIT $4\(skippingLocked))
            RETURNING \(StoreRows.webhookEventColumns)
            """
        migrations = SQLSchema.migrations(blob: blobType)
    }

    static let sqlite = SQLDialect(
        beginWrite: "BEGIN IMMEDIATE", lockRows: "", skippingLocked: "", blobType: "BLOB", engine: .sqlite)
    static let postgres = SQLDialect(
        beginWrite: "BEGIN", lockRows: " FOR UPDATE", skippingLocked: " FOR UPDATE SKIP LOCKED", blobType: "BYTEA",
        engine: .postgres)
}
