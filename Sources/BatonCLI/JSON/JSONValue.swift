import BatonCore

/// A JSON value whose objects keep their key order, so output is written exactly as the contract shows it.
///
/// Equality compares objects as unordered maps. Decodes from any JSON (booleans stay booleans).
public enum JSONValue: Sendable, Hashable, Decodable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, keys in order.
    case object([Member])

    /// One key and value of an object.
    public struct Member: Sendable, Hashable {
        /// The key.
        public let key: String
        /// The value.
        public let value: JSONValue

        /// Creates a member.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// A string, or `null` when `text` is `nil`.
    public static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// The value of `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: Key.self) {
            self = .object(
                try container.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
                    Member($0.stringValue, try container.decode(JSONValue.self, forKey: $0))
                })
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count
                && Dictionary(a.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
                    == Dictionary(b.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .object(let members): hasher.combine(Set(members.map(\.key)))
        case .array(let elements): hasher.combine(elements)
        case .string(let text): hasher.combine(text)
        case .number(let number): hasher.combine(number)
        case .bool(let flag): hasher.combine(flag)
        case .null: hasher.combine(0)
        }
    }

    /// Compact JSON text: no spaces, keys in order, `/` and non-ASCII unescaped.
    public var rendered: String {
        var output = ""
        render(into: &output)
        return output
    }

    private func render(into output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 {
                output += String(Int64(number))
            } else {
                output += "\(number)"
            }
        case .string(let text): JSONText.appendQuoted(text, to: &output)
        case .array(let elements):
            output += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += "," }
                element.render(into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { output += "," }
                JSONText.appendQuoted(member.key, to: &output)
                output += ":"
                member.value.render(into: &output)
            }
            output += "}"
        }
    }
}
