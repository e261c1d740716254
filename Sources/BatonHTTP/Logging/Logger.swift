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
        json.field("ts", Self.timestamp(now()))
        json.field("level", level.rawValue)
        json.field("event", event)
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) { json.field(key, value) }
        sink.write(json.finish())
    }

    /// RFC 3339 UTC with milliseconds, e.g. `2024-05-01T12:00:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        var bytes: [UInt8] = []
        appendTimestamp(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``timestamp(_:)``'s text to `bytes`, digit by digit: no intermediate strings.
    static func appendTimestamp(_ date: Date, to bytes: inout [UInt8]) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        guard (0...9999).contains(year), milliseconds >= 0 else {
            bytes.append(contentsOf: widePaddedTimestamp(parts, milliseconds).utf8)
            return
        }
        func put(_ value: Int, width: Int, then separator: UInt8) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(truncatingIfNeeded: 0x30 + value / divisor % 10))
                divisor /= 10
            }
            bytes.append(separator)
        }
        put(year, width: 4, then: UInt8(ascii: "-"))
        put(Int(parts.tm_mon) + 1, width: 2, then: UInt8(ascii: "-"))
        put(Int(parts.tm_mday), width: 2, then: UInt8(ascii: "T"))
        put(Int(parts.tm_hour), width: 2, then: UInt8(ascii: ":"))
        put(Int(parts.tm_min), width: 2, then: UInt8(ascii: ":"))
        put(Int(parts.tm_sec), width: 2, then: UInt8(ascii: "."))
        put(Int(milliseconds % 1000), width: 3, then: UInt8(ascii: "Z"))
    }

    /// The same format for a year outside 0–9999 or a time before 1970 (never on the request path).
    private static func widePaddedTimestamp(_ parts: tm, _ milliseconds: Int64) -> String {
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
            + "\(pad(Int32(milliseconds % 1000), 3))Z"
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
