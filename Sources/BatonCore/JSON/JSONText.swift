/// The one JSON writer: log lines, problem documents and the app-facing API's bodies. No Foundation, no reflection.
///
/// Members are written in the order they are added (callers add them sorted where the output is compared byte for
/// byte). Only strings, integers, doubles, booleans, null, nested objects, arrays of strings and ``JSONValue`` trees
/// are written, so nothing can smuggle a value's `Mirror` or `debugDescription` into output; strings are escaped per
/// RFC 8259, and DEL and U+2028/U+2029 too, so the text is also safe inside a JavaScript string and on a terminal.
package struct JSONText: Sendable {
    private var text = "{"
    private var first = true

    /// An empty object.
    package init() {}

    /// An empty object with room for `capacity` bytes of text, so that writing that much allocates once.
    package init(reservingCapacity capacity: Int) {
        text.reserveCapacity(capacity)
    }

    /// Adds the string member `name`.
    package mutating func field(_ name: String, _ value: String) {
        key(name)
        Self.appendQuoted(value, to: &text)
    }

    /// Adds the integer member `name`.
    package mutating func field(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
    }

    /// Adds the number member `name`; a non-finite value is written as `null`.
    package mutating func field(_ name: String, _ value: Double) {
        key(name)
        text += value.isFinite ? String(value) : "null"
    }

    /// Adds the boolean member `name`.
    package mutating func field(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    /// Adds the member `name` as a nested object filled by `build`.
    package mutating func field(_ name: String, object build: (inout JSONText) -> Void) {
        key(name)
        var nested = JSONText()
        build(&nested)
        text += nested.finish()
    }

    /// Adds the member `name` as an array of strings.
    package mutating func field(_ name: String, strings values: [String]) {
        key(name)
        text += "["
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            Self.appendQuoted(value, to: &text)
        }
        text += "]"
    }

    /// Adds the member `name` as the tree `value` (``JSONValue``), its members in order.
    package mutating func field(_ name: String, _ value: JSONValue) {
        key(name)
        Self.append(value, to: &text)
    }

    /// Adds the member `name` as `null`.
    package mutating func null(_ name: String) {
        key(name)
        text += "null"
    }

    /// Adds the member `name` as the string `value`, or `null` without one.
    package mutating func field(_ name: String, _ value: String?) {
        if let value { field(name, value) } else { null(name) }
    }

    /// The journey URL `url` as the string member `name`.
    ///
    /// The one place Baton writes a journey URL into any output: only the response that creates the journey calls
    /// it (the API types in `BatonCore/API`). Anything else that wants a URL in JSON writes
    /// ``SensitiveURL/redacted``.
    package mutating func journeyURL(_ name: String, _ url: SensitiveURL) {
        field(name, url.revealForPresentation())
    }

    /// Closes the object and returns its text.
    package mutating func finish() -> String {
        text += "}"
        return text
    }

    /// Closes the object and returns its UTF-8 bytes.
    package mutating func finishBytes() -> [UInt8] { Array(finish().utf8) }

    private mutating func key(_ name: String) {
        if !first { text += "," }
        first = false
        Self.appendQuoted(name, to: &text)
        text += ":"
    }

    /// Appends the tree `value` to `text`: compact, members in order, a whole number below 10^15 without a
    /// fraction, a non-finite number as `null`.
    package static func append(_ value: JSONValue, to text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number):
            if !number.isFinite {
                text += "null"
            } else if number.rounded() == number, abs(number) < 1e15 {
                text += String(Int64(number))
            } else {
                text += String(number)
            }
        case .string(let string): appendQuoted(string, to: &text)
        case .array(let elements):
            text += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { text += "," }
                append(element, to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { text += "," }
                appendQuoted(member.key, to: &text)
                text += ":"
                append(member.value, to: &text)
            }
            text += "}"
        }
    }

    /// Appends `value` to `text` as a JSON string literal (quotes included).
    package static func appendQuoted(_ value: String, to text: inout String) {
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
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// Whether `value` holds anything ``appendQuoted(_:to:)`` escapes: a quote, a backslash, a control character,
    /// DEL, or U+2028/U+2029 (UTF-8 `E2 80 A8`/`E2 80 A9`). Most log values hold none and are appended whole.
    private static func needsEscaping(_ value: String) -> Bool {
        var utf8 = value.utf8.makeIterator()
        while let byte = utf8.next() {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2 {
                return true
            }
        }
        return false
    }
}
