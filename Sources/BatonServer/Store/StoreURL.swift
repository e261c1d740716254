import BatonCore

/// Where a store lives, parsed from `--database`: `sqlite:PATH` or `postgres://…` (`postgresql://…`).
///
/// Its `description` never shows a password.
public struct StoreURL: Sendable, Hashable, CustomStringConvertible {
    /// The engine and its location.
    public enum Location: Sendable, Hashable {
        /// An SQLite file.
        case sqlite(path: String)
        /// A PostgreSQL URI, handed to libpq unchanged.
        case postgres(uri: String)
    }

    /// The parsed location.
    public let location: Location

    /// Parses `string`; throws `StoreError(.invalidConfiguration)` for anything else (without echoing it).
    public init(_ string: String) throws {
        if string.hasPrefix("sqlite:") {
            let path = String(string.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw StoreError(.invalidConfiguration, engine: .sqlite, operation: "parseURL") }
            location = .sqlite(path: path)
        } else if string.hasPrefix("postgres://") || string.hasPrefix("postgresql://") {
            location = .postgres(uri: string)
        } else {
            throw StoreError(.invalidConfiguration, engine: .sqlite, operation: "parseURL")
        }
    }

    /// Opens the store with default options, applying migrations; `password` (PostgreSQL only) overrides any in the
    /// URI. On SQLite, `slowWrites` is told of each batch that held the one writer 20 ms or more.
    public func open(
        password: Secret? = nil, slowWrites: (@Sendable (SQLiteSlowWrite) -> Void)? = nil
    ) async throws -> any Store {
        switch location {
        case .sqlite(let path): try await SQLiteStore.open(path: path, slowWrites: slowWrites)
        case .postgres(let uri): try await PostgresStore.open(url: uri, password: password)
        }
    }

    public var description: String {
        switch location {
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgres(let uri):
            // Drop userinfo entirely (it may hold a password) and any query (it may hold `password=`).
            guard let schemeEnd = uri.range(of: "://") else { return "postgres://…" }
            var rest = uri[schemeEnd.upperBound...]
            if let query = rest.firstIndex(of: "?") { rest = rest[..<query] }
            if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
            return "\(uri[..<schemeEnd.upperBound])…@\(rest)"
        }
    }
}

extension StoreURL: CustomReflectable, CustomDebugStringConvertible {
    /// `dump` and debuggers see only the redacted description.
    public var customMirror: Mirror { Mirror(self, children: ["url": description], displayStyle: .struct) }
    public var debugDescription: String { "StoreURL(\(description))" }
}
