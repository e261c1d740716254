import Foundation

/// An `Idempotency-Key` value: a random RFC 9562 version 4 UUID in its canonical 8-4-4-4-12 hex form.
///
/// Validation is strict: exactly 36 characters, hyphens at positions 8, 13, 18 and 23, hex digits elsewhere
/// (either case), version nibble `4`, variant nibble `8`, `9`, `a` or `b`. The value is kept exactly as given, so
/// keys compare as the strings the client sent.
public struct IdempotencyKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The key as sent in the header.
    public let rawValue: String

    /// Validates `string`; `nil` unless it is a canonical UUIDv4.
    public init?(_ string: String) {
        guard Self.isValid(string) else { return nil }
        self.rawValue = string
    }

    /// A fresh random key from the system's cryptographically secure generator.
    public static func random() -> IdempotencyKey {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A fresh key drawn from `generator` (inject a seeded generator in tests only).
    public static func random<Generator: RandomNumberGenerator>(using generator: inout Generator) -> IdempotencyKey {
        IdempotencyKey(version4Bytes: (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The key for `uuid` with the version and variant bits of a version 4 UUID set (its other 122 bits kept), in
    /// lowercase. It cannot fail: for keys that are fixed rather than drawn, such as a conformance run's.
    public init(version4From uuid: UUID) {
        self.init(version4Bytes: withUnsafeBytes(of: uuid.uuid) { Array($0) })
    }

    /// The canonical text of the first 16 of `bytes` as a UUIDv4: version nibble 4, variant bits `10`, lowercase.
    package init(version4Bytes bytes: [UInt8]) {
        precondition(bytes.count >= 16, "a UUID takes 16 bytes")
        self.rawValue = String(unsafeUninitializedCapacity: 36) { text in
            var written = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[written] = 0x2D
                    written += 1
                }
                let value =
                    switch index {
                    case 6: (bytes[index] & 0x0F) | 0x40
                    case 8: (bytes[index] & 0x3F) | 0x80
                    default: bytes[index]
                    }
                text[written] = Self.hexDigits[Int(value >> 4)]
                text[written + 1] = Self.hexDigits[Int(value & 0x0F)]
                written += 2
            }
            return written
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let key = IdempotencyKey(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a canonical UUIDv4")
        }
        self = key
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func isValid(_ string: String) -> Bool {
        let bytes = Array(string.utf8)
        guard bytes.count == 36 else { return false }
        for (offset, byte) in bytes.enumerated() {
            switch offset {
            case 8, 13, 18, 23:
                guard byte == 0x2D else { return false }
            case 14:
                guard byte == 0x34 else { return false }
            case 19:
                guard [0x38, 0x39, 0x61, 0x62, 0x41, 0x42].contains(byte) else { return false }
            default:
                guard RawURLComponents.isASCIIHexDigit(byte) else { return false }
            }
        }
        return true
    }
}
