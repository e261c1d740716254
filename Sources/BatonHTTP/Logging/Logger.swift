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
        var json = JSONText()
        json.field("ts", Self.timestamp(now()))
        json.field("level", level.rawValue)
        json.field("event", event)
        for key in fields.keys.sorted() {
            switch fields[key]! {
            case .string(let value): json.field(key, value)
            case .int(let value): json.field(key, value)
            case .double(let value): json.field(key, value)
            case .bool(let value): json.field(key, value)
            }
        }
        sink.write(json.finish())
    }

    /// RFC 3339 UTC with milliseconds, e.g. `2024-05-01T12:00:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
            + "\(pad(Int32(milliseconds % 1000), 3))Z"
    }
}
