/// The one error every `Store` throws: a stable code, the engine and operation, and a generic message.
///
/// Like postgres-nio's `PSQLError`, its `description` is deliberately generic: it never contains SQL text,
/// statement arguments, or the database's own message (which can quote row values). The engine's numeric or
/// SQLSTATE code is kept for diagnosis; it carries no data.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, stable for callers to switch on.
    public enum Code: String, Sendable, Hashable {
        /// The database could not be opened or reached (bad path, refused connection, authentication).
        case unavailable
        /// A lock or serialization conflict outlasted the retry budget; the operation may be retried.
        case busy
        /// A uniqueness or other constraint rejected the write.
        case constraintViolation = "constraint_violation"
        /// The database holds data this version cannot read (or the file is not a database).
        case corrupt
        /// A schema migration failed; the database was left at its previous version.
        case migrationFailed = "migration_failed"
        /// The store URL or options are not valid.
        case invalidConfiguration = "invalid_configuration"
        /// The store was closed.
        case closed
        /// An argument the engine cannot hold exactly (a NUL character in text for PostgreSQL) was refused before
        /// it reached the database.
        case invalidArgument = "invalid_argument"
        /// Any other engine failure.
        case engineFailure = "engine_failure"
    }

    /// The database engine that failed.
    public enum Engine: String, Sendable, Hashable {
        /// SQLite (`sqlite:PATH`).
        case sqlite
        /// PostgreSQL (`postgres://…`).
        case postgres
    }

    /// The stable code.
    public let code: Code
    /// The engine that reported it.
    public let engine: Engine
    /// The store operation that failed, as a fixed name (`"claim"`, `"migrate"`…), never a value.
    public let operation: String
    /// The engine's own code: SQLite extended result code, or the PostgreSQL SQLSTATE. Never a message.
    public let engineCode: String?

    /// Creates an error.
    public init(_ code: Code, engine: Engine, operation: String, engineCode: String? = nil) {
        self.code = code
        self.engine = engine
        self.operation = operation
        self.engineCode = engineCode
    }

    public var description: String {
        let suffix = engineCode.map { " [\(engine.rawValue) \($0)]" } ?? " [\(engine.rawValue)]"
        return "StoreError(\(code.rawValue)) during \(operation): \(Self.message(for: code))\(suffix)"
    }

    private static func message(for code: Code) -> String {
        switch code {
        case .unavailable: "the database could not be reached"
        case .busy: "the database was busy; retry"
        case .constraintViolation: "a constraint rejected the write"
        case .corrupt: "the database returned data of an unexpected shape"
        case .migrationFailed: "a schema migration failed"
        case .invalidConfiguration: "the store configuration is invalid"
        case .closed: "the store is closed"
        case .invalidArgument: "an argument the database cannot hold exactly was refused"
        case .engineFailure: "the database reported an error"
        }
    }
}
