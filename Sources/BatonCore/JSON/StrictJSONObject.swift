/// A JSON object whose member names must be exactly a given set, read member by member without coercion.
///
/// Only flat objects of strings, integers, booleans and nulls are accepted: every request body and token payload
/// Baton reads is one, and a fraction, exponent, array or nested object in any member would be refused by its caller
/// anyway. Integers are written as JSON writes them (`0`, `-12`, no leading zeros) and must fit in 64 bits. Within
/// that, the reading is RFC 8259's: whitespace, every escape (surrogate pairs joined, lone surrogates refused), no
/// raw control characters, valid UTF-8, nothing after the object, and each name at most once (compared after
/// unescaping, so `"affirmed"` and `"affirm\u0065d"` are the same member). It reads the bytes once, without
/// Foundation.
package struct StrictJSONObject: Sendable {
    /// One member's value.
    package enum Member: Sendable, Equatable {
        case string(String)
        case integer(Int64)
        case bool(Bool)
        case null
    }

    private let members: [String: Member]

    /// `nil` unless `body` is such an object (at most 16 KiB) whose member names are exactly `keys`.
    package init?(_ body: [UInt8], keys: Set<String>) {
        guard let object = StrictJSONObject(anyNames: body), object.names == keys else { return nil }
        self = object
    }

    /// `nil` unless `body` is such an object (at most 16 KiB) whose member names are all in `allowed`.
    package init?(_ body: [UInt8], allowedKeys allowed: Set<String>) {
        guard let object = StrictJSONObject(anyNames: body), object.names.isSubset(of: allowed) else { return nil }
        self = object
    }

    /// Such an object whatever its member names.
    package init?(anyNames body: [UInt8]) {
        guard body.count <= 16 * 1024 else { return nil }
        var reader = FlatJSONReader(body)
        guard let members = reader.object() else { return nil }
        self.members = members
    }

    /// The member names.
    package var names: Set<String> { Set(members.keys) }

    /// Whether member `name` is the literal `null`.
    package func isNull(_ name: String) -> Bool { members[name] == .null }

    /// The non-empty string member `name`, else `nil`.
    package func string(_ name: String) -> String? {
        guard case .string(let value)? = members[name], !value.isEmpty else { return nil }
        return value
    }

    /// The string member `name`, empty or not; `nil` when absent or not a string.
    package func anyString(_ name: String) -> String? {
        guard case .string(let value)? = members[name] else { return nil }
        return value
    }

    /// Whether member `name` is absent or the literal `null`.
    package func isAbsentOrNull(_ name: String) -> Bool { members[name] == nil || members[name] == .null }

    /// The string member `name`, `nil` when it is absent or `null`; `.none` (refuse the body) for any other value.
    package func optionalString(_ name: String) -> String?? {
        if isAbsentOrNull(name) { return .some(nil) }
        return anyString(name).map { .some($0) } ?? .none
    }

    /// Whether member `name` is the literal `true`.
    package func isTrue(_ name: String) -> Bool { members[name] == .bool(true) }

    /// The integer member `name`, else `nil`.
    package func integer(_ name: String) -> Int64? {
        guard case .integer(let value)? = members[name] else { return nil }
        return value
    }
}

/// The byte-level reader behind ``StrictJSONObject``.
private struct FlatJSONReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The whole input as one object, or `nil`.
    mutating func object() -> [String: StrictJSONObject.Member]? {
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var members: [String: StrictJSONObject.Member] = [:]
        skipWhitespace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                guard let name = string() else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = value(), members.updateValue(value, forKey: name) == nil else { return nil }
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipWhitespace()
        return index == bytes.count ? members : nil
    }

    /// The value starting here, chosen by its first byte: a reader that has begun one kind of value (and moved past
    /// some of it) never falls back to trying another.
    private mutating func value() -> StrictJSONObject.Member? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string().map { .string($0) }
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
        let negative = take(UInt8(ascii: "-"))
        var digits: [UInt8] = []
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            digits.append(bytes[index])
            index += 1
        }
        guard !digits.isEmpty, digits.count == 1 || digits[0] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            return nil
        }
        return Int64((negative ? "-" : "") + String(decoding: digits, as: UTF8.self))
    }

    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var utf8: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            case 0x00..<0x20:
                return nil
            default:
                utf8.append(byte)
            }
        }
        return nil
    }

    /// The scalar of a `\u` escape whose `\u` was just read, joining a surrogate pair; `nil` for a lone surrogate.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hexQuad() else { return nil }
        switch high {
        case 0xD800...0xDBFF:
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hexQuad(),
                (0xDC00...0xDFFF).contains(low)
            else { return nil }
            return Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (low - 0xDC00))
        case 0xDC00...0xDFFF:
            return nil
        default:
            return Unicode.Scalar(high)
        }
    }

    private mutating func hexQuad() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
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
