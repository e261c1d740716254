import BatonCore
import Foundation

/// A JSON log line written by the one JSON writer (``JSONText``) straight into UTF-8 bytes, for the lines written on
/// every request (the access log, `provider_call`): names are literals appended without a scan, and the bytes go to
/// the sink as they are (``LogSink/write(bytes:)``).
///
/// Fields are added in key order, as ``Logger/log(_:_:_:)`` writes them, so the line is byte for byte what it writes
/// for the same members (a test compares the two); a debug build stops at a field added out of order.
package struct LogLine {
    private var json = JSONText(reservingCapacity: 256)
    #if DEBUG
    /// The last field's name, to check the order of the next.
    private var previous: StaticString?
    #endif

    /// `{"ts":…,"level":…,"event":…` for `date`, `level` and `event`.
    package init(date: Date, level: Logger.Level, event: String) {
        json.field(literal: "ts", timestamp: date, milliseconds: true)
        json.field(literal: "level", level.rawValue)
        json.field(literal: "event", event)
    }

    /// Adds the string member `name` (a literal that needs no escaping).
    package mutating func field(_ name: StaticString, _ value: String) {
        checkOrder(name)
        json.field(literal: name, value)
    }

    /// Adds the integer member `name`.
    package mutating func field(_ name: StaticString, _ value: Int) {
        checkOrder(name)
        json.field(literal: name, value)
    }

    /// Adds the number member `name` (`null` when not finite).
    package mutating func field(_ name: StaticString, _ value: Double) {
        checkOrder(name)
        json.field(literal: name, value)
    }

    /// Closes the object and returns the line, without its newline.
    package consuming func finish() -> [UInt8] {
        json.finishBytes()
    }

    /// Whether `name` may follow `previous`: it sorts after it, as `Logger.log` sorts its fields.
    static func follows(_ previous: StaticString, _ name: StaticString) -> Bool {
        previous.withUTF8Buffer { previous in name.withUTF8Buffer { previous.lexicographicallyPrecedes($0) } }
    }

    private mutating func checkOrder(_ name: StaticString) {
        #if DEBUG
        if let previous {
            precondition(
                Self.follows(previous, name), "log field \(name) added after \(previous): add fields in key order")
        }
        previous = name
        #endif
    }
}
