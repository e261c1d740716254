/// A tiny JSON object writer for log lines and problem documents: no Foundation, no reflection.
///
/// Only strings, integers, doubles, booleans and null are written, so nothing can smuggle a value's `Mirror` or
/// `debugDescription` into output; strings are escaped per RFC 8259.
struct JSONText {
    private var text = "{"
    private var first = true

    mutating func field(_ name: String, _ value: String) {
        key(name)
        Self.appendQuoted(value, to: &text)
    }

    mutating func field(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
    }

    mutating func field(_ name: String, _ value: Double) {
        key(name)
        text += value.isFinite ? String(value) : "null"
    }

    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    mutating func null(_ name: String) {
        key(name)
        text += "null"
    }

    mutating func finish() -> String {
        text += "}"
        return text
    }

    private mutating func key(_ name: String) {
        if !first { text += "," }
        first = false
        Self.appendQuoted(name, to: &text)
        text += ":"
    }

    static func appendQuoted(_ value: String, to text: inout String) {
        text += "\""
        if !needsEscaping(value) {
            text += value
            text += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// Whether `value` holds anything ``appendQuoted(_:to:)`` escapes: a quote, a backslash, a control character,
    /// or U+2028/U+2029 (UTF-8 `E2 80 A8`/`E2 80 A9`). Most log values hold none and are appended whole.
    private static func needsEscaping(_ value: String) -> Bool {
        var utf8 = value.utf8.makeIterator()
        while let byte = utf8.next() {
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2 { return true }
        }
        return false
    }
}
