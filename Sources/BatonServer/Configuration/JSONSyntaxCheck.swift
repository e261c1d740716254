/// Finds where a configuration file stops being JSON (RFC 8259), to report it by line and column: Foundation's
/// decoder only says "not valid JSON", which leaves a person hunting for a stray comma or a pasted `//` comment.
struct JSONSyntaxCheck {
    /// The first syntax error: 1-based line and column (in characters) and what was expected there.
    struct Failure: Sendable, Hashable {
        let line: Int
        let column: Int
        let problem: String
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The first syntax error in `bytes`, or `nil` when they are one JSON value with nothing after it.
    static func firstError(in bytes: [UInt8]) -> Failure? {
        var check = JSONSyntaxCheck(bytes)
        do throws(Problem) {
            check.skipWhitespace()
            try check.value(depth: 0)
            check.skipWhitespace()
            if check.index < bytes.count { throw Problem("unexpected text after the end of the JSON value") }
            return nil
        } catch {
            return check.failure(error.message)
        }
    }

    private struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private func failure(_ message: String) -> Failure {
        var line = 1
        var lineStart = 0
        for position in 0..<min(index, bytes.count) where bytes[position] == UInt8(ascii: "\n") {
            line += 1
            lineStart = position + 1
        }
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        let column = bytes[lineStart..<min(index, bytes.count)].count { $0 & 0xC0 != 0x80 } + 1
        let what = index < bytes.count ? message : "the file ends early: " + message
        return Failure(line: line, column: column, problem: what)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func value(depth: Int) throws(Problem) {
        guard depth < 512 else { throw Problem("nested too deeply") }
        guard let byte = current else { throw Problem("expected a value") }
        switch byte {
        case UInt8(ascii: "{"): try object(depth: depth)
        case UInt8(ascii: "["): try array(depth: depth)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "/"): throw Problem("comments are not allowed in JSON: remove them")
        default: throw Problem("expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func object(depth: Int) throws(Problem) {
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            if current == UInt8(ascii: "/") { throw Problem("comments are not allowed in JSON: remove them") }
            guard current == UInt8(ascii: "\"") else {
                throw Problem("expected a member name in double quotes (no comma after the last member)")
            }
            try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw Problem("expected ':' after the member name") }
            index += 1
            skipWhitespace()
            try value(depth: depth + 1)
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                continue
            }
            guard current == UInt8(ascii: "}") else { throw Problem("expected ',' or '}' after a member") }
            index += 1
            return
        }
    }

    private mutating func array(depth: Int) throws(Problem) {
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try value(depth: depth + 1)
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if current == UInt8(ascii: "]") { throw Problem("no comma is allowed after the last element") }
                continue
            }
            guard current == UInt8(ascii: "]") else { throw Problem("expected ',' or ']' after an element") }
            index += 1
            return
        }
    }

    private mutating func string() throws(Problem) {
        index += 1
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = current, Array("\"\\/bfnrtu".utf8).contains(escaped) else {
                    throw Problem("invalid escape in a string")
                }
                index += 1
                if escaped == UInt8(ascii: "u") {
                    for _ in 0..<4 {
                        guard let hex = current,
                            (hex >= 0x30 && hex <= 0x39) || ((hex | 0x20) >= 0x61 && (hex | 0x20) <= 0x66)
                        else { throw Problem("\\u must be followed by four hex digits") }
                        index += 1
                    }
                }
            case 0..<0x20: throw Problem("a string cannot contain a raw line break or control character")
            default: index += 1
            }
        }
        throw Problem("a string is not closed")
    }

    private mutating func literal(_ word: String) throws(Problem) {
        for byte in word.utf8 {
            guard current == byte else { throw Problem("expected \(word) (strings need double quotes)") }
            index += 1
        }
    }

    private mutating func number() throws(Problem) {
        if current == UInt8(ascii: "-") { index += 1 }
        guard digits() > 0 else { throw Problem("expected a digit") }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw Problem("expected a digit after the decimal point") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw Problem("expected a digit in the exponent") }
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = current, byte >= 0x30 && byte <= 0x39 { index += 1 }
        return index - start
    }
}
