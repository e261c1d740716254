import Foundation

/// Any JSON value, compared structurally: how vector files state expectations.
enum JSONValue: Hashable, Decodable, CustomStringConvertible, ExpressibleByStringLiteral,
    ExpressibleByDictionaryLiteral,
    ExpressibleByArrayLiteral
{
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    init(stringLiteral value: String) { self = .string(value) }
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var int: Int? {
        if case .number(let value) = self { return Int(exactly: value) }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The value re-encoded as JSON data (to decode it as a typed value).
    var data: Data { try! JSONSerialization.data(withJSONObject: foundationObject, options: [.fragmentsAllowed]) }

    private var foundationObject: Any {
        switch self {
        case .string(let value): value
        case .number(let value): value
        case .bool(let value): value
        case .null: NSNull()
        case .array(let values): values.map(\.foundationObject)
        case .object(let object): object.mapValues(\.foundationObject)
        }
    }

    var description: String {
        String(
            decoding: try! JSONSerialization.data(
                withJSONObject: foundationObject, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]),
            as: UTF8.self)
    }
}
