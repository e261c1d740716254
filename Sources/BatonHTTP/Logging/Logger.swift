import BatonCore
import Foundation

/// A value in a structured log line: text, a number or a flag — never an arbitrary object.
///
/// String interpolation of a `SensitiveURL` or `Secret` goes through their redacting `description`, so neither
/// can reach a log line in the clear unless code explicitly calls a `reveal…` method first.
public enum LogValue: Sendable, Equatable, ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral {
    /// Text.
    case string(String)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A flag.
    case bool(Bool)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
}

/// Writes structured JSON-lines events: `{"ts","level","event",…fields}`.
public struct Logger: Sendable {
    /// Severity of an event.
    public enum Level: String, Sendable {
        /// Diagnostics.
        case debug
        /// Normal operation.
        case info
        /// Something unexpected the process survived.
        case warning
        /// A failure.
        case error
    }

    /// The sink lines go to.
    public let sink: any LogSink
    /// The clock for the `ts` field (injected in tests).
    public let now: @Sendable () -> Date

    /// A logger writing to `sink`, stamping lines with `now()`.
    public init(sink: any LogSink = StandardErrorLogSink.shared, now: @escaping @Sendable () -> Date = { Date() }) {
        self.sink = sink
        self.now = now
    }

    /// Logs `event` with `fields` (written in key order after `ts`, `level` and `event`).
    public func log(_ level: Level, _ event: String, _ fields: [String: LogValue] = [:]) {
        var json = JSONText(reservingCapacity: 256)
        json.field(literal: "ts", timestamp: now(), milliseconds: true)
        json.field(literal: "level", level.rawValue)
        json.field(literal: "event", event)
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) { json.field(key, value) }
        sink.write(json.finish())
    }

    /// RFC 3339 UTC with milliseconds, as the `ts` field carries it, e.g. `2024-05-01T12:00:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        var bytes: [UInt8] = []
        RFC3339.append(date, milliseconds: true, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension JSONText {
    /// Adds the log value `value` as the member `name`.
    mutating func field(_ name: String, _ value: LogValue) {
        switch value {
        case .string(let value): field(name, value)
        case .int(let value): field(name, value)
        case .double(let value): field(name, value)
        case .bool(let value): field(name, value)
        }
    }
}
