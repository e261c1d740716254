/// Where a JSON text stops being JSON (RFC 8259): the 1-based line and column (in characters) and what was expected.
package struct JSONSyntaxError: Error, Sendable, Hashable {
    /// The 1-based line.
    package let line: Int
    /// The 1-based column, counted in characters.
    package let column: Int
    /// What is wrong there, for a person ("expected ':' after the member name").
    package let problem: String
}

/// The one byte-level JSON reader behind ``StrictJSONObject`` (flat objects, no error detail, as fast as a request
/// body needs) and ``JSONValue/parse(_:)`` (any value, with the line and column of the first error).
///
/// Both read strings the same way: every escape (surrogate pairs joined, lone surrogates refused), no raw control
/// characters, valid UTF-8.
struct JSONReader {
    /// Why reading stopped, at ``index``.
    struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private let bytes: [UInt8]
    private(set) var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    // MARK: Flat objects (StrictJSONObject)

    /// The whole input as one flat object of strings, integers, booleans and nulls, each name once; else `nil`.
    mutating func flatObject() -> [String: StrictJSONObject.Member]? {
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var members: [String: StrictJSONObject.Member] = [:]
        skipWhitespace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                guard current == UInt8(ascii: "\""), let name = try? string() else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = flatValue(), members.updateValue(value, forKey: name) == nil else { return nil }
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipWhitespace()
        return index == bytes.count ? members : nil
    }

    /// The value starting here, chosen by its first byte: a reader that has begun one kind of value (and moved past
    /// some of it) never falls back to trying another.
    private mutating func flatValue() -> StrictJSONObject.Member? {
        guard let byte = current else { return nil }
        switch byte {
        case UInt8(ascii: "\""): return (try? string()).map { .string($0) }
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer().map { .integer($0) }
        default: return nil
        }
    }

    /// `-?(0|[1-9][0-9]*)` fitting in an `Int64`; `nil` (and the whole object refused) for anything else that starts
    /// like a number, a fraction or an exponent included.
    private mutating func integer() -> Int64? {
        let start = index
        _ = take(UInt8(ascii: "-"))
        let count = digits()
        guard count > 0, count == 1 || bytes[index - count] != UInt8(ascii: "0") else { return nil }
        if let byte = current, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            return nil
        }
        return Int64(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    // MARK: Any value (JSONValue)

    /// The whole input as one value with nothing after it.
    mutating func document() throws(Problem) -> JSONValue {
        skipWhitespace()
        let value = try value(depth: 0)
        skipWhitespace()
        if index < bytes.count { throw Problem("unexpected text after the end of the JSON value") }
        return value
    }

    /// ``index`` as a line and column, with `message` (prefixed when the input ended early).
    func syntaxError(_ message: String) -> JSONSyntaxError {
        var line = 1
        var lineStart = 0
        for position in 0..<min(index, bytes.count) where bytes[position] == UInt8(ascii: "\n") {
            line += 1
            lineStart = position + 1
        }
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        let column = bytes[lineStart..<min(index, bytes.count)].count { $0 & 0xC0 != 0x80 } + 1
        let what = index < bytes.count ? message : "the file ends early: " + message
        return JSONSyntaxError(line: line, column: column, problem: what)
    }

    private mutating func value(depth: Int) throws(Problem) -> JSONValue {
        guard depth < 512 else { throw Problem("nested too deeply") }
        guard let byte = current else { throw Problem("expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try word("true", .bool(true))
        case UInt8(ascii: "f"): return try word("false", .bool(false))
        case UInt8(ascii: "n"): return try word("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "/"): throw Problem("comments are not allowed in JSON: remove them")
        default: throw Problem("expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func object(depth: Int) throws(Problem) -> JSONValue {
        index += 1
        skipWhitespace()
        var members: [JSONValue.Member] = []
        var names: Set<String> = []
        if take(UInt8(ascii: "}")) { return .object(members) }
        while true {
            if current == UInt8(ascii: "/") { throw Problem("comments are not allowed in JSON: remove them") }
            guard current == UInt8(ascii: "\"") else {
                throw Problem("expected a member name in double quotes (no comma after the last member)")
            }
            let nameStart = index
            let name = try string()
            guard names.insert(name).inserted else {
                index = nameStart
                throw Problem("the member name \"\(name)\" appears twice in one object")
            }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { throw Problem("expected ':' after the member name") }
            skipWhitespace()
            members.append(JSONValue.Member(name, try value(depth: depth + 1)))
            skipWhitespace()
            if take(UInt8(ascii: ",")) {
                skipWhitespace()
                continue
            }
            guard take(UInt8(ascii: "}")) else { throw Problem("expected ',' or '}' after a member") }
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(Problem) -> JSONValue {
        index += 1
        skipWhitespace()
        var elements: [JSONValue] = []
        if take(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            if take(UInt8(ascii: ",")) {
                skipWhitespace()
                if current == UInt8(ascii: "]") { throw Problem("no comma is allowed after the last element") }
                continue
            }
            guard take(UInt8(ascii: "]")) else { throw Problem("expected ',' or ']' after an element") }
            return .array(elements)
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` as a finite `Double`.
    private mutating func number() throws(Problem) -> Double {
        let start = index
        _ = take(UInt8(ascii: "-"))
        let integerStart = index
        let count = digits()
        guard count > 0 else { throw Problem("expected a digit") }
        if count > 1, bytes[integerStart] == UInt8(ascii: "0") {
            index = integerStart
            throw Problem("a number cannot start with 0 unless it is 0")
        }
        if take(UInt8(ascii: ".")) {
            guard digits() > 0 else { throw Problem("expected a digit after the decimal point") }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { throw Problem("expected a digit in the exponent") }
        }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)), number.isFinite else {
            index = start
            throw Problem("the number is too large")
        }
        return number
    }

    private mutating func word(_ text: StaticString, _ value: JSONValue) throws(Problem) -> JSONValue {
        let word = text.withUTF8Buffer { Array($0) }
        for byte in word {
            guard current == byte else {
                throw Problem("expected \(String(decoding: word, as: UTF8.self)) (strings need double quotes)")
            }
            index += 1
        }
        return value
    }

    // MARK: Shared

    /// The string whose opening quote is at ``index``.
    private mutating func string() throws(Problem) -> String {
        index += 1
        // The usual string has no escape and no control byte: read it from the input as it is, without first
        // copying it byte by byte into an array (the token payload and the share body read nine strings a share).
        // Anything else is read below from the same place, so errors and their positions stay the same.
        var end = index
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                let start = index
                index = end + 1
                guard let text = String(validating: bytes[start..<end], as: UTF8.self) else {
                    throw Problem("a string is not valid UTF-8")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            end += 1
        }
        var utf8: [UInt8] = []
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw Problem("a string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = current else { throw Problem("invalid escape in a string") }
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    index += 1
                    let scalar = try unicodeEscape()
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                    continue
                default: throw Problem("invalid escape in a string")
                }
                index += 1
            case 0..<0x20: throw Problem("a string cannot contain a raw line break or control character")
            default:
                utf8.append(byte)
                index += 1
            }
        }
        throw Problem("a string is not closed")
    }

    /// The scalar of a `\u` escape whose `\u` was just read, joining a surrogate pair.
    private mutating func unicodeEscape() throws(Problem) -> Unicode.Scalar {
        let high = try hexQuad()
        switch high {
        case 0xD800...0xDBFF:
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")) else {
                throw Problem("a \\u surrogate must be followed by its pair")
            }
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low),
                let scalar = Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (low - 0xDC00))
            else { throw Problem("a \\u surrogate must be followed by its pair") }
            return scalar
        case 0xDC00...0xDFFF:
            throw Problem("a \\u surrogate must be followed by its pair")
        default:
            guard let scalar = Unicode.Scalar(high) else { throw Problem("invalid escape in a string") }
            return scalar
        }
    }

    private mutating func hexQuad() throws(Problem) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let digit: UInt8
            switch current {
            case let byte? where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"):
                digit = byte - UInt8(ascii: "0")
            case let byte? where byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"):
                digit = byte - UInt8(ascii: "a") + 10
            case let byte? where byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"):
                digit = byte - UInt8(ascii: "A") + 10
            default: throw Problem("\\u must be followed by four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = word.withUTF8Buffer { expected in bytes[index..<index + count].elementsEqual(expected) }
        if matches { index += count }
        return matches
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
        {
            index += 1
        }
    }
}

extension JSONValue {
    /// Reads `bytes` as one JSON value (RFC 8259; each member name at most once per object, nesting below 512).
    ///
    /// - Throws: ``JSONSyntaxError`` at the first place the text stops being JSON.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var reader = JSONReader(bytes)
        do {
            return try reader.document()
        } catch {
            throw reader.syntaxError(error.message)
        }
    }
}
