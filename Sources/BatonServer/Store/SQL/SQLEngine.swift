/// How an engine runs statements for the shared store logic (``SQLStore``): on which connection, and in
/// which kind of transaction. Each engine confines its connections to their own threads.
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

    /// Closes every connection and stops their threads.
    func close() async
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
}

/// The few places where SQLite and PostgreSQL SQL differ. Statements are otherwise shared, with `$n` arguments.
struct SQLDialect: Sendable {
    /// Starts a read-modify-write transaction that takes the write lock at once.
    var beginWrite: String
    /// Appended to a `SELECT` that locks the rows it reads until commit.
    var lockRows: String
    /// Appended to a `SELECT` that locks what it reads and skips rows other transactions hold.
    var lockRowsSkippingLocked: String
    /// The column type for bytes.
    var blobType: String
    /// Which engine, for errors.
    var engine: StoreError.Engine

    static let sqlite = SQLDialect(
        beginWrite: "BEGIN IMMEDIATE", lockRows: "", lockRowsSkippingLocked: "", blobType: "BLOB", engine: .sqlite)
    static let postgres = SQLDialect(
        beginWrite: "BEGIN", lockRows: " FOR UPDATE", lockRowsSkippingLocked: " FOR UPDATE SKIP LOCKED",
        blobType: "BYTEA", engine: .postgres)
}
