import Foundation

/// A statement argument or result cell, the only value type crossing the engine wrappers.
enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])

    /// Milliseconds since 1970, the stored form of every `Date`.
    static func time(_ date: Date) -> SQLValue { .integer(Int64((date.timeIntervalSince1970 * 1000).rounded(.down))) }

    static func time(_ date: Date?) -> SQLValue { date.map { time($0) } ?? .null }

    static func text(_ string: String?) -> SQLValue { string.map { SQLValue.text($0) } ?? .null }

    static func blob(_ bytes: [UInt8]?) -> SQLValue { bytes.map { SQLValue.blob($0) } ?? .null }
}

/// One result row. Accessors throw `DecodingFailure` on a shape mismatch; the store maps it to `.corrupt`.
struct SQLRow: Sendable {
    var values: [SQLValue]

    struct DecodingFailure: Error {}

    func text(_ index: Int) throws -> String {
        guard case .text(let value) = values[index] else { throw DecodingFailure() }
        return value
    }

    func optionalText(_ index: Int) throws -> String? {
        if case .null = values[index] { return nil }
        return try text(index)
    }

    func integer(_ index: Int) throws -> Int64 {
        guard case .integer(let value) = values[index] else { throw DecodingFailure() }
        return value
    }

    func optionalInteger(_ index: Int) throws -> Int64? {
        if case .null = values[index] { return nil }
        return try integer(index)
    }

    func blob(_ index: Int) throws -> [UInt8] {
        switch values[index] {
        case .blob(let value): return value
        case .text(let value): return Array(value.utf8)
        default: throw DecodingFailure()
        }
    }

    func optionalBlob(_ index: Int) throws -> [UInt8]? {
        if case .null = values[index] { return nil }
        return try blob(index)
    }

    func time(_ index: Int) throws -> Date { Date(timeIntervalSince1970: Double(try integer(index)) / 1000) }

    func optionalTime(_ index: Int) throws -> Date? {
        try optionalInteger(index).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}

/// A connection as the shared store logic sees it: statements with `$1…` placeholders, run synchronously on
/// the connection's own thread. Implemented by exactly one wrapper per engine.
protocol SQLSession: AnyObject, SendableMetatype {
    /// Runs one statement (prepared once per connection and cached) and returns its rows.
    func query(_ sql: String, _ arguments: [SQLValue]) throws(StoreError) -> [SQLRow]
    /// Runs one ``RowChange`` and answers whether it changed a row.
    func changed(_ change: RowChange, _ arguments: [SQLValue]) throws(StoreError) -> Bool
    /// Runs SQL without arguments or results (transaction control, DDL).
    func execute(_ sql: String) throws(StoreError)
    /// Whether the connection is still usable; a broken one is dropped and reopened.
    var isHealthy: Bool { get }
    /// Releases the engine handle.
    func close()
}

extension SQLSession {
    /// `body` inside `begin`…`COMMIT`, rolled back if it throws.
    func transaction<T>(begin: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
