/// An ordered list of header fields with case-insensitive lookup by name.
///
/// Field order and repeated fields are kept; names are compared ASCII case-insensitively.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Equatable {
        /// The field name as received or given.
        public var name: String
        /// The field value.
        public var value: String

        /// Makes a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// An empty header list.
    public init() { self.fields = [] }

    /// Headers from name/value pairs, in order; with room for the two a server adds to most responses
    /// (`x-request-id`, and `connection` when closing), so adding them does not copy the fields.
    public init(_ pairs: [(String, String)]) {
        self.fields = []
        fields.reserveCapacity(pairs.count + 2)
        for (name, value) in pairs { fields.append(Field(name: name, value: value)) }
    }

    /// Makes room for `count` fields in all, so that adding up to that many does not copy the list.
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value for `name` (case-insensitive), or `nil`.
    public subscript(name: String) -> String? {
        fields.first { Self.equalNames($0.name, name) }?.value
    }

    /// Every value for `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.equalNames($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { fields.contains { Self.equalNames($0.name, name) } }

    /// Appends a field, keeping any existing fields with the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append(Field(name: name, value: value)) }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) { fields.removeAll { Self.equalNames($0.name, name) } }

    /// Number of fields.
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    static func equalNames(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count
            && zip(lhs.utf8, rhs.utf8).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
}
