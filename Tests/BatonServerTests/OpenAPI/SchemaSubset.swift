import Foundation

/// The part of JSON Schema the API's component schemas use (`type`, `required`, `properties`,
/// `additionalProperties: false`, `enum`, `const`, `oneOf`, `minLength`, `maxLength`, `minimum`, `maximum`),
/// enough to check a body against the served OpenAPI document without a validator package.
struct SchemaSubset {
    /// A JSON value as the document and the bodies hold it.
    indirect enum Value: Decodable, Equatable {
        case null, bool(Bool), number(Double), string(String), array([Value]), object([String: Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .string(text)
            } else if let array = try? container.decode([Value].self) {
                self = .array(array)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        /// Parses `bytes`.
        static func parse(_ bytes: [UInt8]) throws -> Value { try JSONDecoder().decode(Value.self, from: Data(bytes)) }

        subscript(_ name: String) -> Value? {
            if case .object(let members) = self { members[name] } else { nil }
        }

        var objectValue: [String: Value]? { if case .object(let members) = self { members } else { nil } }
        var arrayValue: [Value]? { if case .array(let items) = self { items } else { nil } }
        var stringValue: String? { if case .string(let text) = self { text } else { nil } }
        var numberValue: Double? { if case .number(let number) = self { number } else { nil } }
    }

    let schema: Value
    /// The document's component schemas, for `$ref: "#/components/schemas/NAME"`.
    let definitions: Value?

    /// The subset for `schema`, a `$ref` to one of `definitions` followed.
    init(schema: Value, definitions: Value? = nil) {
        let prefix = "#/components/schemas/"
        if let reference = schema["$ref"]?.stringValue, reference.hasPrefix(prefix),
            let target = definitions?[String(reference.dropFirst(prefix.count))]
        {
            self.schema = target
        } else {
            self.schema = schema
        }
        self.definitions = definitions
    }

    private func subset(_ schema: Value) -> SchemaSubset { SchemaSubset(schema: schema, definitions: definitions) }

    /// What is wrong with `value`; empty when it conforms.
    func violations(of value: Value, at path: String = "$") -> [String] {
        var found: [String] = []
        if let type = schema["type"]?.stringValue, !Self.has(type: type, value) { return ["\(path): not \(type)"] }
        if let options = schema["enum"]?.arrayValue, !options.contains(value) { found.append("\(path): not in enum") }
        if let constant = schema["const"], constant != value { found.append("\(path): not the const") }
        if case .string(let text) = value {
            if let minimum = schema["minLength"]?.numberValue, Double(text.count) < minimum {
                found.append("\(path): too short")
            }
            if let maximum = schema["maxLength"]?.numberValue, Double(text.count) > maximum {
                found.append("\(path): too long")
            }
        }
        if case .number(let number) = value {
            if let minimum = schema["minimum"]?.numberValue, number < minimum { found.append("\(path): too small") }
            if let maximum = schema["maximum"]?.numberValue, number > maximum { found.append("\(path): too big") }
        }
        if let alternatives = schema["oneOf"]?.arrayValue {
            let matching = alternatives.filter { subset($0).violations(of: value, at: path).isEmpty }
            if matching.count != 1 { found.append("\(path): matches \(matching.count) of oneOf") }
        }
        if let object = value.objectValue {
            let properties = schema["properties"]?.objectValue ?? [:]
            for case .string(let name) in schema["required"]?.arrayValue ?? [] where object[name] == nil {
                found.append("\(path).\(name): required but absent")
            }
            for (name, member) in object {
                if let property = properties[name] {
                    found += subset(property).violations(of: member, at: "\(path).\(name)")
                } else if schema["additionalProperties"] == .bool(false) {
                    found.append("\(path).\(name): not in the schema")
                }
            }
        }
        return found
    }

    /// Every member name the schema describes, nested ones (in `oneOf` alternatives too) as `outer.inner`.
    var memberNames: Set<String> {
        var names: Set<String> = []
        for (name, property) in schema["properties"]?.objectValue ?? [:] {
            names.insert(name)
            for alternative in [property] + (property["oneOf"]?.arrayValue ?? []) {
                names.formUnion(subset(alternative).memberNames.map { "\(name).\($0)" })
            }
        }
        return names
    }

    /// Every member name `value` holds, nested ones as `outer.inner`.
    static func memberNames(of value: Value) -> Set<String> {
        var names: Set<String> = []
        for (name, member) in value.objectValue ?? [:] {
            names.insert(name)
            names.formUnion(memberNames(of: member).map { "\(name).\($0)" })
        }
        return names
    }

    private static func has(type: String, _ value: Value) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
            ("number", .number):
            true
        case ("integer", .number(let number)): number == number.rounded()
        default: false
        }
    }
}
