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

    /// The value of the first field called `name` in `query`, as `FormURLEncodedQuery(parsing: query).first(name)`
    /// answers, but stopping at that field and decoding nothing else (no fields array, no other strings).
    static func first(_ name: String, in query: Substring) -> String? {
        RawURLComponents.withBytes(name[...]) { target in
            let targetIsASCII = target.allSatisfy { $0 < 0x80 }
            return RawURLComponents.withBytes(query) { bytes in
                var pieceStart = 0
                while pieceStart < bytes.count {
                    let pieceEnd = bytes[pieceStart...].firstIndex(of: 0x26) ?? bytes.count
                    let equals = bytes[pieceStart..<pieceEnd].firstIndex(of: 0x3D) ?? pieceEnd
                    let fieldName = bytes[pieceStart..<equals]
                    let matches =
                        targetIsASCII ? decodedASCIIName(fieldName, equals: target) : decodeSlice(fieldName) == name
                    if pieceEnd > pieceStart, matches {
                        return equals == pieceEnd ? "" : decodeSlice(bytes[(equals + 1)..<pieceEnd])
                    }
                    pieceStart = pieceEnd + 1
                }
                return nil
            }
        }
    }

    /// ``first(_:in:)``, but `nil` when the value is empty too.
    static func firstNonEmpty(_ name: String, in query: Substring) -> String? {
        guard let value = first(name, in: query), !value.isEmpty else { return nil }
        return value
    }

    /// Whether `decode(bytes) == name` for an ASCII `name` (given as its bytes). While the decoded bytes are ASCII
    /// they are compared with `name`'s as they are produced (ASCII strings are equal exactly when their bytes are);
    /// a non-ASCII decoded byte falls back to `String` comparison (canonical equivalence), as `==` answers.
    private static func decodedASCIIName(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>, equals name: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        var nameIndex = 0
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let (byte, next) = decodedByte(at: index, in: bytes)
            if byte >= 0x80 { return decodeSlice(bytes) == String(decoding: name, as: UTF8.self) }
            guard nameIndex < name.count, name[nameIndex] == byte else { return false }
            nameIndex += 1
            index = next
        }
        return nameIndex == name.count
    }

    /// ``decode(_:)`` of a slice of a valid string cut at ASCII delimiters: without `+` or `%` it is that text.
    private static func decodeSlice(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        guard bytes.contains(where: { $0 == 0x2B || $0 == 0x25 }) else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
        }
        return decode(bytes)
    }

    /// `+` to space, then one pass of percent-decoding; malformed escapes stay as written.
    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let (byte, next) = decodedByte(at: index, in: bytes)
            output.append(byte)
            index = next
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The decoded byte at `index` (`+` is a space, `%XY` one byte, anything else itself) and the index after it.
    private static func decodedByte<Bytes: Collection<UInt8>>(
        at index: Bytes.Index, in bytes: Bytes
    ) -> (UInt8, Bytes.Index) {
        let byte = bytes[index]
        if byte == 0x2B { return (0x20, bytes.index(after: index)) }
        if byte == 0x25,
            let high = bytes.index(index, offsetBy: 1, limitedBy: bytes.endIndex), high != bytes.endIndex,
            let low = bytes.index(high, offsetBy: 1, limitedBy: bytes.endIndex), low != bytes.endIndex,
            let highValue = hexValue(bytes[high]), let lowValue = hexValue(bytes[low])
        {
            return (highValue << 4 | lowValue, bytes.index(after: low))
        }
        return (byte, bytes.index(after: index))
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
