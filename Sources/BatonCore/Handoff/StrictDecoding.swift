/// A coding key for any string, used to see every key an object holds.
struct AnyCodingKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { self.stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

extension KeyedDecodingContainer {
    /// Throws `dataCorrupted` naming the first key of the object that is not one of `Key.allCases`.
    func rejectUnknownKeys(from decoder: any Decoder) throws where Key: CaseIterable {
        let allowed = Set(Key.allCases.map(\.stringValue))
        let all = try decoder.container(keyedBy: AnyCodingKey.self)
        if let extra = all.allKeys.map(\.stringValue).sorted().first(where: { !allowed.contains($0) }) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath + [AnyCodingKey(extra)], debugDescription: "unexpected key"))
        }
    }

    /// Decodes a string that must equal `literal` exactly.
    func decodeLiteral(_ literal: String, forKey key: Key) throws {
        guard try decode(String.self, forKey: key) == literal else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "expected the literal \"\(literal)\"")
        }
    }

    /// Decodes a string that must not be empty.
    func decodeNonEmpty(forKey key: Key) throws -> String {
        let value = try decode(String.self, forKey: key)
        guard !value.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "must not be empty")
        }
        return value
    }
}

extension DecodingError {
    /// The dotted path of the field the error is about (for example `handoff.primary.actionLabel`), for error
    /// messages and problem details; it names fields only, never values.
    public var fieldPath: String {
        let path: [any CodingKey]
        switch self {
        case .keyNotFound(let key, let context): path = context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        @unknown default: path = []
        }
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}
