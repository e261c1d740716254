private import CSQLite

/// The only Swift code that calls SQLite. One instance is one `sqlite3` handle, used from one thread only
/// (it lives inside a `ConfinedConnection`), so it is opened `NOMUTEX`. Statements are prepared once and
/// cached by SQL text; every result code goes through ``check(_:_:)`` into `StoreError`, without SQLite's
/// message (which may quote values).
final class SQLiteConnection: SQLSession {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// The retained ``WALObserver`` installed with `sqlite3_wal_hook`, released at close.
    private var walObserver: Unmanaged<WALObserver>?
    private let busyTimeoutMilliseconds: Int32
    private static let transactionControl: Set<String> = [
        "BEGIN IMMEDIATE", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT write", "RELEASE write", "ROLLBACK TO write",
    ]

    /// Opens `path` (created if missing unless `readOnly`), sets WAL (writer) and `busy_timeout`.
    ///
    /// With `afterCommit`, the connection does not checkpoint the WAL itself: after each commit SQLite reports the
    /// WAL's size in pages to `afterCommit`, which has another connection checkpoint (see ``SQLiteCheckpointer``).
    init(
        path: String, readOnly: Bool, busyTimeoutMilliseconds: Int32,
        afterCommit: (@Sendable (_ walPages: Int) -> Void)? = nil
    ) throws(StoreError) {
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        var opened: OpaquePointer?
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        handle = opened
        guard status == SQLITE_OK else {
            close()
            throw StoreError(.unavailable, engine: .sqlite, operation: "open", engineCode: String(status))
        }
        sqlite3_extended_result_codes(handle, 1)
        try check(sqlite3_busy_timeout(handle, busyTimeoutMilliseconds), "open")
        if !readOnly {
            try execute("PRAGMA journal_mode=WAL")
            try execute("PRAGMA synchronous=NORMAL")
        }
        if let afterCommit {
            // Replaces SQLite's automatic checkpoint, which would run inside a commit on this (the writer's) thread.
            let observer = Unmanaged.passRetained(WALObserver(afterCommit))
            walObserver = observer
            sqlite3_wal_hook(handle, walCommitted, observer.toOpaque())
        }
        try execute("PRAGMA foreign_keys=ON")
    }

    var isHealthy: Bool { handle != nil }

    /// Whether a transaction is open (SQLite ends one on its own after some errors, e.g. a full disk).
    var isInTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    func execute(_ sql: String) throws(StoreError) {
        guard handle != nil else { throw StoreError(.closed, engine: .sqlite, operation: "execute") }
        // Transaction control runs on every write: keep it prepared like any other statement.
        if Self.transactionControl.contains(sql) {
            _ = try query(sql, [])
            return
        }
        try check(sqlite3_exec(handle, sql, nil, nil, nil), "execute")
    }

    func query(_ sql: String, _ arguments: [SQLValue]) throws(StoreError) -> [SQLRow] {
        let statement = try prepared(sql)
        defer { release(statement) }
        try bind(arguments, to: statement)
        var rows: [SQLRow] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else {
                try check(status, "step")
                return rows
            }
            let columns = sqlite3_column_count(statement)
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columns))
            for column in 0..<columns { values.append(value(at: column, in: statement)) }
            rows.append(SQLRow(values: values))
        }
    }

    /// Counts the rows the statement changed (`sqlite3_changes64`) instead of reading a `RETURNING` row.
    func changed(_ change: RowChange, _ arguments: [SQLValue]) throws(StoreError) -> Bool {
        let statement = try prepared(change.statement)
        defer { release(statement) }
        // A statement that only reads leaves the count of the last one that wrote: refuse it, never misanswer.
        guard sqlite3_stmt_readonly(statement) == 0 else {
            throw StoreError(.engineFailure, engine: .sqlite, operation: "step")
        }
        try bind(arguments, to: statement)
        let status = sqlite3_step(statement)
        guard status == SQLITE_DONE else {
            // An error, or a row (`SQLITE_ROW`: not a `RowChange`): `check` throws for either, as an engine failure
            // for the row; the `throw` below only tells the compiler.
            try check(status, "step")
            throw StoreError(.engineFailure, engine: .sqlite, operation: "step")
        }
        return sqlite3_changes64(handle) > 0
    }

    /// Runs `sql` (a `BEGIN IMMEDIATE`) without waiting for another connection's lock: fails at once with `.busy`
    /// where `busy_timeout` would wait, for a caller that must not block (a write on an event loop's thread).
    func executeWithoutWaiting(_ sql: String) throws(StoreError) {
        guard let handle else { throw StoreError(.closed, engine: .sqlite, operation: "execute") }
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
        try execute(sql)
    }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        if let handle {
            sqlite3_wal_hook(handle, nil, nil)
            sqlite3_close_v2(handle)
        }
        handle = nil
        walObserver?.release()
        walObserver = nil
    }

    /// Copies committed WAL frames into the database without blocking writers or readers (`PASSIVE`), or, with
    /// `truncate`, waits for writers, copies everything and empties the WAL. Returns the frames left in the WAL.
    @discardableResult
    func checkpoint(truncate: Bool = false) throws(StoreError) -> Int {
        guard handle != nil else { throw StoreError(.closed, engine: .sqlite, operation: "checkpoint") }
        var logFrames: Int32 = 0
        var checkpointed: Int32 = 0
        let mode = truncate ? SQLITE_CHECKPOINT_TRUNCATE : SQLITE_CHECKPOINT_PASSIVE
        let status = sqlite3_wal_checkpoint_v2(handle, nil, mode, &logFrames, &checkpointed)
        // BUSY from a PASSIVE checkpoint only means another checkpoint is running: nothing is wrong.
        if status & 0xff == SQLITE_BUSY { return Int(max(0, logFrames - checkpointed)) }
        try check(status, "checkpoint")
        return Int(max(0, logFrames - checkpointed))
    }

    deinit { close() }

    // MARK: - Private

    /// Statements are written with `$1…` placeholders (shared with PostgreSQL); SQLite spells them `?1…`.
    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        guard handle != nil else { throw StoreError(.closed, engine: .sqlite, operation: "prepare") }
        var statement: OpaquePointer?
        let native = sql.replacingOccurrences(of: "$", with: "?")
        try check(sqlite3_prepare_v3(handle, native, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), "prepare")
        guard let statement else { throw StoreError(.engineFailure, engine: .sqlite, operation: "prepare") }
        statements[sql] = statement
        return statement
    }

    private func bind(_ arguments: [SQLValue], to statement: OpaquePointer) throws(StoreError) {
        for (offset, argument) in arguments.enumerated() {
            try bind(argument, at: Int32(offset + 1), in: statement)
        }
    }

    /// Readies a statement for its next run, letting go of the values bound to it.
    private func release(_ statement: OpaquePointer) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    private func bind(_ value: SQLValue, at index: Int32, in statement: OpaquePointer) throws(StoreError) {
        let status: Int32
        switch value {
        case .null: status = sqlite3_bind_null(statement, index)
        case .integer(let integer): status = sqlite3_bind_int64(statement, index, integer)
        case .text(let text):
            // Bound with its byte length, never -1: a NUL inside the text is data, not its end ("victim\0x" must
            // not read or write "victim"'s rows).
            let length = Int32(text.utf8.count)
            status = text.withCString { sqlite3_bind_text(statement, index, $0, length, baton_sqlite_transient()) }
        case .blob(let bytes):
            status = bytes.withUnsafeBytes { buffer in
                // A zero-length blob must still bind as a blob, not NULL: give SQLite a valid pointer.
                sqlite3_bind_blob(
                    statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                    baton_sqlite_transient())
            }
        }
        try check(status, "bind")
    }

    private func value(at column: Int32, in statement: OpaquePointer) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        case SQLITE_FLOAT: return .integer(Int64(sqlite3_column_double(statement, column)))
        default:
            guard let text = sqlite3_column_text(statement, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        }
    }

    /// Every SQLite result code passes here: `SQLITE_OK` returns, anything else becomes a typed `StoreError`.
    private func check(_ status: Int32, _ operation: String) throws(StoreError) {
        guard status != SQLITE_OK else { return }
        let code: StoreError.Code
        switch status & 0xff {
        case SQLITE_BUSY, SQLITE_LOCKED: code = .busy
        case SQLITE_CONSTRAINT: code = .constraintViolation
        case SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_MISMATCH: code = .corrupt
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL: code = .unavailable
        default: code = .engineFailure
        }
        throw StoreError(code, engine: .sqlite, operation: operation, engineCode: String(status))
    }
}

/// Holds the closure `sqlite3_wal_hook` reaches through its context pointer.
private final class WALObserver {
    let afterCommit: @Sendable (Int) -> Void
    init(_ afterCommit: @escaping @Sendable (Int) -> Void) { self.afterCommit = afterCommit }
}

/// The `sqlite3_wal_hook` callback (a global function: a capturing closure cannot be a C function pointer).
private func walCommitted(
    _ context: UnsafeMutableRawPointer?, _ db: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ pages: Int32
) -> Int32 {
    guard let context else { return SQLITE_OK }
    Unmanaged<WALObserver>.fromOpaque(context).takeUnretainedValue().afterCommit(Int(pages))
    return SQLITE_OK
}
