/// Any JSON value, objects keeping their members in order: the one generic tree, for what has no fixed shape
/// (a configuration file walked field by field, vector files, the sandbox's listings and reports).
///
/// Request bodies and token payloads have a fixed shape and are read with ``StrictJSONObject`` instead. A tree is
/// read with ``parse(_:)`` (the same byte-level reader) and written with ``JSONText`` (``rendered``). Numbers are
/// `Double`s, as JSON defines them; a whole number below 10^15 is written without a fraction. Equality compares
/// objects as unordered maps.
package enum JSONValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
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
    /// An object, members in order.
    case object([Member])

    /// One name and value of an object.
    package struct Member: Sendable, Hashable {
        /// The member name.
        package let key: String
        /// The value.
        package let value: JSONValue

        /// Creates a member.
        package init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .number(Double(value)) }
    package init(floatLiteral value: Double) { self = .number(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object with the members in the literal's order.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { Member($0.0, $0.1) })
    }

    /// A string, or `null` when `text` is `nil`.
    package static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// A whole number, or `null` when `value` is `nil`.
    package static func optional(_ value: Int?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }

    /// A whole number.
    package static func integer(_ value: Int) -> JSONValue { .number(Double(value)) }

    /// The value of member `key` when this is an object (the first, should a name repeat).
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The members by name when this is an object (the first, should a name repeat), else `nil`.
    package var members: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The string, when this is one.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// This value with every object's members sorted by name (for output compared byte for byte).
    package var sortingKeys: JSONValue {
        switch self {
        case .object(let members):
            .object(members.sorted { $0.key < $1.key }.map { Member($0.key, $0.value.sortingKeys) })
        case .array(let elements): .array(elements.map(\.sortingKeys))
        default: self
        }
    }

    /// Compact JSON text, written by ``JSONText``: no spaces, members in order.
    package var rendered: String {
        var output: [UInt8] = []
        JSONText.append(self, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && lhs.members == rhs.members
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .object(let members): hasher.combine(Set(members.map(\.key)))
        case .array(let elements): hasher.combine(elements)
        case .string(let text): hasher.combine(text)
        case .number(let number): hasher.combine(number)
        case .bool(let flag): hasher.combine(flag)
        case .null: hasher.combine(0)
        }
    }
}
