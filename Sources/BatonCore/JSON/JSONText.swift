/// The one JSON writer, byte-level: log lines, problem documents, the app-facing API's bodies, the sandbox's bodies
/// and listings. No reflection, and it cannot fail.
///
/// Members are written in the order they are added (callers add them sorted where the output is compared byte for
/// byte). Only strings, integers, doubles, booleans, null, RFC 3339 timestamps, nested objects, arrays of strings and
/// ``JSONValue`` trees are written, so nothing can smuggle a value's `Mirror` or `debugDescription` into output;
/// strings are escaped per RFC 8259, and DEL and U+2028/U+2029 too, so the text is also safe inside a JavaScript
/// string and on a terminal. A member name given as a `StaticString` (`field(literal:…)`, the log lines' names) is
/// written as it is, without a scan.
package struct JSONText: Sendable {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var first = true

    /// An empty object.
    package init() {}

    /// An empty object with room for `capacity` bytes of text, so that writing that much allocates once.
    package init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Adds the string member `name`.
    package mutating func field(_ name: String, _ value: String) {
        key(name)
        Self.appendQuoted(value, to: &bytes)
    }

    /// Adds the integer member `name`.
    package mutating func field(_ name: String, _ value: Int) {
        key(name)
        Self.appendNumber(value, to: &bytes)
    }

    /// Adds the number member `name`; a non-finite value is written as `null`.
    package mutating func field(_ name: String, _ value: Double) {
        key(name)
        Self.appendNumber(value, to: &bytes)
    }

    /// Adds the boolean member `name`.
    package mutating func field(_ name: String, _ value: Bool) {
        key(name)
        Self.appendText(value ? "true" : "false", to: &bytes)
    }

    /// Adds the member `name` as a nested object filled by `build`.
    package mutating func field(_ name: String, object build: (inout JSONText) -> Void) {
        key(name)
        var nested = JSONText()
        build(&nested)
        bytes.append(contentsOf: nested.finishBytes())
    }

    /// Adds the member `name` as an array of strings.
    package mutating func field(_ name: String, strings values: [String]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendQuoted(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Adds the member `name` as the tree `value` (``JSONValue``), its members in order.
    package mutating func field(_ name: String, _ value: JSONValue) {
        key(name)
        Self.append(value, to: &bytes)
    }

    /// Adds the member `name` as `null`.
    package mutating func null(_ name: String) {
        key(name)
        Self.appendText("null", to: &bytes)
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

    // MARK: Members named by literals

    /// Adds the string member `name`, a literal that needs no escaping.
    package mutating func field(literal name: StaticString, _ value: String) {
        key(literal: name)
        Self.appendQuoted(value, to: &bytes)
    }

    /// Adds the integer member `name`, a literal that needs no escaping.
    package mutating func field(literal name: StaticString, _ value: Int) {
        key(literal: name)
        Self.appendNumber(value, to: &bytes)
    }

    /// Adds the number member `name`, a literal that needs no escaping; a non-finite value is written as `null`.
    package mutating func field(literal name: StaticString, _ value: Double) {
        key(literal: name)
        Self.appendNumber(value, to: &bytes)
    }

    /// Adds the string member `name`, a literal that needs no escaping, whose text `write` appends as UTF-8: only
    /// for text that needs no escaping by construction (``field(literal:timestamp:milliseconds:)``).
    mutating func field(literal name: StaticString, unescaped write: (inout [UInt8]) -> Void) {
        key(literal: name)
        bytes.append(UInt8(ascii: "\""))
        write(&bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    // MARK: Finishing

    /// Closes the object and returns its text.
    package mutating func finish() -> String {
        String(decoding: finishBytes(), as: UTF8.self)
    }

    /// Closes the object and returns its UTF-8 bytes.
    package mutating func finishBytes() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func key(_ name: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        Self.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func key(literal name: StaticString) {
        assert(name.withUTF8Buffer { !Self.needsEscaping($0) }, "a literal member name must need no escaping")
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    // MARK: Values

    /// Appends the tree `value` to `bytes`: compact, members in order, a whole number below 10^15 without a
    /// fraction, a non-finite number as `null`.
    package static func append(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: appendText("null", to: &bytes)
        case .bool(let flag): appendText(flag ? "true" : "false", to: &bytes)
        case .number(let number):
            if number.isFinite, number.rounded() == number, abs(number) < 1e15 {
                appendText(String(Int64(number)), to: &bytes)
            } else {
                appendNumber(number, to: &bytes)
            }
        case .string(let string): appendQuoted(string, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                append(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                appendQuoted(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                append(member.value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `value` to `bytes` as a JSON string literal (quotes included): its UTF-8 as it is when nothing in it
    /// needs escaping (the usual case), else scalar by scalar.
    package static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        let plain = value.withUTF8 { utf8 in
            guard !needsEscaping(utf8) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !plain { appendEscaped(value, to: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ value: String, to bytes: inout [UInt8]) {
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": appendText("\\\"", to: &bytes)
            case "\\": appendText("\\\\", to: &bytes)
            case "\n": appendText("\\n", to: &bytes)
            case "\r": appendText("\\r", to: &bytes)
            case "\t": appendText("\\t", to: &bytes)
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                appendText("\\u" + String(repeating: "0", count: 4 - hex.count) + hex, to: &bytes)
            default: UTF8.encode(scalar) { bytes.append($0) }
            }
        }
    }

    /// Whether `utf8` holds anything ``appendQuoted(_:to:)`` escapes: a quote, a backslash, a control character,
    /// DEL, or the lead byte of U+2028/U+2029 (UTF-8 `E2 80 A8`/`E2 80 A9`; other `E2` characters are then
    /// written as they are).
    private static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0xE2 }
    }

    private static func appendNumber(_ value: Int, to bytes: inout [UInt8]) {
        appendText(String(value), to: &bytes)
    }

    private static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        appendText(value.isFinite ? String(value) : "null", to: &bytes)
    }

    private static func appendText(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }
}
