/// A query string parsed as WHATWG `application/x-www-form-urlencoded`, in order, duplicates kept.
///
/// The algorithm is the URL Standard's: split on `&` (empty pieces skipped), split each piece at its first `=`
/// (no `=` means an empty value), turn `+` into a space, then percent-decode exactly once, keeping a `%` that is not
/// followed by two hex digits literally; bytes that are not UTF-8 become U+FFFD. Values are never decoded twice.
public struct FormURLEncodedQuery: Sendable, Hashable {
    /// One decoded `name=value` pair.
    public struct Field: Sendable, Hashable {
        /// The decoded name.
        public let name: String
        /// The decoded value (empty when the piece had no `=`).
        public let value: String
    }

    /// The decoded pairs in the order they appear.
    public let fields: [Field]

    /// Parses `query` (the text after `?`, without it).
    public init<Query: StringProtocol>(parsing query: Query) {
        var fields: [Field] = []
        for piece in query.utf8.split(separator: 0x26, omittingEmptySubsequences: true) {
            let name: Query.UTF8View.SubSequence
            let value: Query.UTF8View.SubSequence
            if let equals = piece.firstIndex(of: 0x3D) {
                name = piece[..<equals]
                value = piece[piece.index(after: equals)...]
            } else {
                name = piece
                value = piece[piece.endIndex...]
            }
            fields.append(Field(name: Self.decode(name), value: Self.decode(value)))
        }
        self.fields = fields
    }

    /// The value of the first field called `name` (exact, case-sensitive), or `nil` when there is none.
    public func first(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// The value of the first field called `name`, or `nil` when there is none or it is empty.
    public func firstNonEmpty(_ name: String) -> String? {
        guard let value = first(name), !value.isEmpty else { return nil }
        return value
    }

    /// `+` to space, then one pass of percent-decoding; malformed escapes stay as written.
    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x2B {
                output.append(0x20)
            } else if byte == 0x25,
                let high = bytes.index(index, offsetBy: 1, limitedBy: bytes.endIndex), high != bytes.endIndex,
                let low = bytes.index(high, offsetBy: 1, limitedBy: bytes.endIndex), low != bytes.endIndex,
                let highValue = hexValue(bytes[high]), let lowValue = hexValue(bytes[low])
            {
                output.append(highValue << 4 | lowValue)
                index = low
            } else {
                output.append(byte)
            }
            index = bytes.index(after: index)
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
