import BatonCore
import Foundation

/// A JSON log line written straight into UTF-8 bytes, for the line written on every request (the access log): keys
/// are literals appended without a scan, values are appended as they come, and the bytes go to the sink as they are
/// (``LogSink/write(bytes:)``).
///
/// The output is byte for byte what ``Logger/log(_:_:_:)`` writes for the same members added in key order (a test
/// compares the two); strings are escaped by ``JSONText``'s rules.
package struct LogLine {
    private var bytes: [UInt8] = []

    /// `{"ts":…,"level":…,"event":…` for `date`, `level` and `event`.
    package init(date: Date, level: Logger.Level, event: String) {
        bytes.reserveCapacity(256)
        append(#"{"ts":""#)
        Logger.appendTimestamp(date, to: &bytes)
        append(#"","level":"#)
        string(level.rawValue)
        append(#","event":"#)
        string(event)
    }

    /// Adds the string member `name` (a literal that needs no escaping).
    package mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    /// Adds the integer member `name`.
    package mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        append(String(value))
    }

    /// Adds the number member `name`, formatted as ``JSONText`` formats it (`null` when not finite).
    package mutating func field(_ name: StaticString, _ value: Double) {
        key(name)
        append(value.isFinite ? String(value) : "null")
    }

    /// Closes the object and returns the line, without its newline.
    package consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: ","))
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends `value` quoted: as it is when nothing in it needs escaping (the usual case), else through
    /// ``JSONText/appendQuoted(_:to:)``.
    private mutating func string(_ value: String) {
        var value = value
        let plain = value.withUTF8 { utf8 in
            // The bytes JSONText escapes, or starts a check for (0xE2: U+2028/U+2029).
            if utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 }) {
                return false
            }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !plain {
            var quoted = ""
            JSONText.appendQuoted(value, to: &quoted)
            append(quoted)
        }
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }
}
