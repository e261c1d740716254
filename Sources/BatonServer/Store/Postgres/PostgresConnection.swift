import BatonCore
import BatonCrypto
private import CLibPQ
import Foundation

/// The only Swift code that calls libpq. One instance is one `PGconn`, used by one thread at a time: blocking,
/// inside a `ConfinedConnection`, or non-blocking in pipeline mode under a `PostgresPipeline`'s lock.
///
/// Statements are prepared once per connection (`PQprepare`) and run with text arguments (bytes as binary; text
/// containing NUL refused, as libpq would cut it) through `PQexecPrepared` or, in pipeline mode,
/// `PQsendQueryPrepared`; every result passes ``check(_:_:)`` into a `StoreError` carrying the SQLSTATE only, never
/// the server's message (which can quote row values).
final class PostgresConnection: SQLSession {
    private var handle: OpaquePointer?
    private var statementNames: [String: String] = [:]
    /// Numbers statement names; never reused (a name whose preparation failed is dropped, not recycled).
    private var preparedCount = 0

    /// Connects with a libpq connection string or `postgres://` URI; with `password`, that password overrides any the
    /// URI carries (libpq's passfile is read only without either); with `schema`, confines every unqualified name to
    /// that schema (tests use one fresh schema each).
    ///
    /// Baton writes on every connection, so it only keeps one that accepts writes: `target_session_attrs` is
    /// `read-write` unless `conninfo` says otherwise (with several hosts, libpq then goes down its list to the one
    /// that is primary now; `connect_timeout` is 5 s per host unless set: ``connectionDefaults``), and a connection
    /// that still lands on a read-only server (a hot standby, or `default_transaction_read_only`, with
    /// `target_session_attrs=any`) is closed and refused as unavailable with SQLSTATE 25006, so the store answers a
    /// retryable failure instead of failing each write on it.
    init(conninfo: String, password: Secret? = nil, schema: String?) throws(StoreError) {
        handle = Self.connect(conninfo, password: password)
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            close()
            throw StoreError(.unavailable, engine: .postgres, operation: "connect")
        }
        // Reported by servers from 14 on at connect, without a round trip (what libpq's own check reads).
        let reported: [String] = ["in_hot_standby", "default_transaction_read_only"]
        let readOnly = reported.contains { (name: String) -> Bool in
            guard let value = PQparameterStatus(handle, name) else { return false }
            return String(cString: value) == "on"
        }
        guard !readOnly else {
            close()
            throw StoreError(.unavailable, engine: .postgres, operation: "connect", engineCode: Self.readOnlySQLState)
        }
        try execute("SET client_min_messages TO warning")
        if let schema { try execute("SET search_path TO \"\(schema)\"") }
    }

    var isHealthy: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// SQLSTATE `read_only_sql_transaction`: a write reached a server that does not accept writes (a standby, or a
    /// primary that was demoted); treated as a lost connection.
    static let readOnlySQLState = "25006"

    /// What Baton asks of libpq unless `conninfo` (or libpq's own environment variable) says otherwise: a session
    /// that takes writes, and at most 5 s to reach each host, so a primary whose machine is gone (no refusal, no
    /// answer) delays the next host in the list by that much instead of the kernel's TCP timeout (minutes).
    static let connectionDefaults: [(keyword: String, value: String, environment: String)] = [
        ("target_session_attrs", "read-write", "PGTARGETSESSIONATTRS"),
        ("connect_timeout", "5", "PGCONNECT_TIMEOUT"),
    ]

    /// Opens `conninfo` with ``connectionDefaults`` placed before it, so a value in `conninfo` wins, and `password`
    /// after it, so the password wins (its copy is zeroed before it is freed).
    private static func connect(_ conninfo: String, password: Secret?) -> OpaquePointer? {
        let defaults = connectionDefaults.filter { ProcessInfo.processInfo.environment[$0.environment] == nil }
        var keywordNames: [String] = defaults.map(\.keyword) + ["dbname"]
        var valueTexts: [String] = defaults.map(\.value) + [conninfo]
        if let password {
            keywordNames.append("password")
            valueTexts.append(password.revealForUse())
        }
        let keywords = keywordNames.map { (text: String) in strdup(text) }
        let values = valueTexts.map { (text: String) in strdup(text) }
        defer {
            for pointer in keywords { free(pointer) }
            for pointer in values {
                if let pointer { memset(pointer, 0, strlen(pointer)) }
                free(pointer)
            }
        }
        let keywordList: [UnsafePointer<CChar>?] = keywords.map { UnsafePointer($0) } + [nil]
        let valueList: [UnsafePointer<CChar>?] = values.map { UnsafePointer($0) } + [nil]
        // expand_dbname = 1: `dbname` is read as a whole connection string or URI, later keys overriding earlier.
        return PQconnectdbParams(keywordList, valueList, 1)
    }

    /// The options libpq reads from `conninfo` (a `postgres://` URI or `key=value` string), by keyword, those set
    /// only; `nil` if libpq cannot parse it. For `baton doctor`: nothing is connected.
    static func options(of conninfo: String) -> [String: String]? {
        var message: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(conninfo, &message) else {
            if let message { PQfreemem(message) }
            return nil
        }
        defer { PQconninfoFree(parsed) }
        var options: [String: String] = [:]
        var option = parsed
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { options[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return options
    }

    func execute(_ sql: String) throws(StoreError) {
        guard let handle else { throw StoreError(.closed, engine: .postgres, operation: "execute") }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, "execute")
    }

    func query(_ sql: String, _ arguments: [SQLValue]) throws(StoreError) -> [SQLRow] {
        guard let handle else { throw StoreError(.closed, engine: .postgres, operation: "query") }
        let name = try statementName(for: sql, on: handle, count: arguments.count)
        let result = try Self.withParameters(arguments) { count, values, lengths, formats in
            PQexecPrepared(handle, name, count, values, lengths, formats, 0)
        }
        defer { PQclear(result) }
        return rows(of: try check(result, "query"))
    }

    func changed(_ change: RowChange, _ arguments: [SQLValue]) throws(StoreError) -> Bool {
        try !query(change.returning, arguments).isEmpty
    }

    // MARK: - Pipeline mode (PostgresPipeline)

    /// What ``nextPipelineEvent(_:)`` read from a connection in pipeline mode.
    enum PipelineEvent {
        /// A command's rows (or an empty success).
        case rows([SQLRow])
        /// A command failed, or was skipped because an earlier one in its sync group failed.
        case failed(StoreError)
        /// libpq's end-of-command marker between results.
        case commandEnd
        /// The sync point that ends one statement sent by ``send(_:_:operation:)``.
        case sync
    }

    /// Makes the connection non-blocking and enters libpq's pipeline mode: statements are then only sent with
    /// ``send(_:_:operation:)`` and read with ``nextPipelineEvent(_:)``, never with ``query(_:_:)``.
    func enterPipelineMode() throws(StoreError) {
        guard let handle, PQsetnonblocking(handle, 1) == 0, PQenterPipelineMode(handle) == 1 else {
            throw StoreError(.unavailable, engine: .postgres, operation: "pipeline")
        }
    }

    /// The connection's socket, for the event loop to wait on.
    var socket: Int32 { handle.map { PQsocket($0) } ?? -1 }

    /// Queues one statement (preparing it first, in the same batch, if this connection has not yet) and a sync
    /// point, so it commits on its own; nothing is queued if an argument is refused. Returns whether the statement
    /// was prepared in this batch (its results then start with the preparation's). Call ``flush()`` afterwards.
    func send(_ sql: String, _ arguments: [SQLValue], operation: String) throws(StoreError) -> Bool {
        guard let handle else { throw StoreError(.closed, engine: .postgres, operation: operation) }
        let known = statementNames[sql]
        let name: String
        if let known {
            name = known
        } else {
            preparedCount += 1
            name = "baton_\(preparedCount)"
        }
        let sent = try Self.withParameters(arguments) { count, values, lengths, formats -> Bool in
            if known == nil, PQsendPrepare(handle, name, sql, count, nil) != 1 { return false }
            return PQsendQueryPrepared(handle, name, count, values, lengths, formats, 0) == 1
                && PQpipelineSync(handle) == 1
        }
        guard sent else { throw StoreError(.unavailable, engine: .postgres, operation: operation) }
        if known == nil { statementNames[sql] = name }
        return known == nil
    }

    /// Forgets a statement whose preparation failed, so the next use prepares it again.
    func forgetStatement(_ sql: String) { statementNames[sql] = nil }

    /// Writes what libpq has queued without blocking: `true` once everything is sent, `false` if the socket is full
    /// (wait until it is writable and call again).
    func flush() throws(StoreError) -> Bool {
        guard let handle else { throw StoreError(.closed, engine: .postgres, operation: "flush") }
        switch PQflush(handle) {
        case 0: return true
        case 1: return false
        default: throw StoreError(.unavailable, engine: .postgres, operation: "flush")
        }
    }

    /// Reads whatever the server has sent, without blocking; throws if the connection is gone.
    func consumeInput() throws(StoreError) {
        guard let handle, PQconsumeInput(handle) == 1 else {
            throw StoreError(.unavailable, engine: .postgres, operation: "read")
        }
    }

    /// The next complete result read so far, or `nil` if libpq would have to wait for more input.
    func nextPipelineEvent(_ operation: String) -> PipelineEvent? {
        guard let handle, PQisBusy(handle) == 0 else { return nil }
        guard let result = PQgetResult(handle) else { return .commandEnd }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_PIPELINE_SYNC: return .sync
        case PGRES_PIPELINE_ABORTED: return .failed(StoreError(.engineFailure, engine: .postgres, operation: operation))
        default:
            do {
                return .rows(rows(of: try check(result, operation)))
            } catch {
                return .failed(error)
            }
        }
    }

    func close() {
        if let handle { PQfinish(handle) }
        handle = nil
        statementNames.removeAll()
    }

    deinit { close() }

    // MARK: - Private

    private func statementName(for sql: String, on handle: OpaquePointer, count: Int) throws(StoreError) -> String {
        if let name = statementNames[sql] { return name }
        preparedCount += 1
        let name = "baton_\(preparedCount)"
        let result = PQprepare(handle, name, sql, Int32(count), nil)
        defer { PQclear(result) }
        try check(result, "prepare")
        statementNames[sql] = name
        return name
    }

    private func rows(of result: OpaquePointer) -> [SQLRow] {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        var rows: [SQLRow] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                guard PQgetisnull(result, row, column) == 0, let raw = PQgetvalue(result, row, column) else {
                    values.append(.null)
                    continue
                }
                let text = String(cString: raw)
                switch PQftype(result, column) {
                case 20, 21, 23, 26: values.append(Int64(text).map(SQLValue.integer) ?? .text(text))
                case 16: values.append(.integer(text == "t" ? 1 : 0))
                case 17: values.append(Self.bytea(text).map(SQLValue.blob) ?? .text(text))
                default: values.append(.text(text))
                }
            }
            rows.append(SQLRow(values: values))
        }
        return rows
    }

    /// Every libpq result passes here: command/tuples OK returns the (non-nil) result, anything else becomes a typed
    /// `StoreError`.
    @discardableResult
    private func check(_ result: OpaquePointer?, _ operation: String) throws(StoreError) -> OpaquePointer {
        guard let result else {
            throw StoreError(isHealthy ? .engineFailure : .unavailable, engine: .postgres, operation: operation)
        }
        let status = PQresultStatus(result)
        guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK else { return result }
        let sqlState = baton_pq_sqlstate(result).map { String(cString: $0) }
        throw StoreError(code(for: sqlState), engine: .postgres, operation: operation, engineCode: sqlState)
    }

    private func code(for sqlState: String?) -> StoreError.Code {
        guard let sqlState else { return isHealthy ? .engineFailure : .unavailable }
        switch sqlState {
        case "40001", "40P01", "55P03", "57014": return .busy
        case "XX001", "XX002": return .corrupt
        case "3D000", Self.readOnlySQLState: return .unavailable
        default: break
        }
        switch sqlState.prefix(2) {
        case "23": return .constraintViolation
        case "08", "28", "53", "57": return .unavailable
        default: return .engineFailure
        }
    }

    /// Calls `body` with libpq's parameter arrays for `arguments` (text format, bytes as binary), valid only inside.
    private static func withParameters<T>(
        _ arguments: [SQLValue],
        _ body: (
            Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>, UnsafePointer<Int32>
        ) -> T
    ) throws(StoreError) -> T {
        var values: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        values.reserveCapacity(arguments.count)
        defer { for value in values { value?.deallocate() } }
        for argument in arguments {
            switch argument {
            case .null:
                values.append(nil)
                lengths.append(0)
                formats.append(0)
            case .integer(let integer):
                values.append(Self.cString(String(integer)))
                lengths.append(0)
                formats.append(0)
            case .text(let text):
                // libpq reads text-format parameters as C strings (their lengths are ignored) and PostgreSQL's text
                // cannot hold NUL: refuse it here, or "victim\0x" would be sent as "victim".
                guard !text.utf8.contains(0) else {
                    throw StoreError(.invalidArgument, engine: .postgres, operation: "bind")
                }
                values.append(Self.cString(text))
                lengths.append(0)
                formats.append(0)
            case .blob(let bytes):
                let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
                bytes.withUnsafeBytes { source in
                    if let base = source.baseAddress {
                        UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: source.count)
                    }
                }
                values.append(buffer)
                lengths.append(Int32(bytes.count))
                formats.append(1)
            }
        }
        return values.withUnsafeBufferPointer { valuePointers in
            valuePointers.withMemoryRebound(to: UnsafePointer<CChar>?.self) { constValues in
                body(Int32(arguments.count), constValues.baseAddress, lengths, formats)
            }
        }
    }

    private static func cString(_ string: String) -> UnsafeMutablePointer<CChar> {
        let utf8 = Array(string.utf8CString)
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
        pointer.initialize(from: utf8, count: utf8.count)
        return pointer
    }

    /// `bytea` in the text result format is `\x` followed by hex.
    private static func bytea(_ text: String) -> [UInt8]? {
        guard text.hasPrefix("\\x") else { return nil }
        return Hex.decode(String(text.dropFirst(2)))
    }
}
