import Foundation

/// A key or secret (provider API key, webhook secret, signing key) that never prints itself.
///
/// `description`, `debugDescription` and `dump` show `Secret(…)`. Its bytes are reached only through
/// ``withBytes(_:)`` or ``revealForUse()``, both easy to grep for. Not `Encodable`.
public struct Secret: Sendable, Hashable {
    private let storage: [UInt8]

    /// Wraps the UTF-8 bytes of `string`.
    public init(_ string: String) { self.storage = Array(string.utf8) }

    /// Wraps raw key bytes.
    public init(bytes: [UInt8]) { self.storage = bytes }

    /// Number of bytes, for length checks; safe to print.
    public var count: Int { storage.count }

    /// Calls `body` with the key bytes. Do not let them escape.
    public func withBytes<R>(_ body: ([UInt8]) throws -> R) rethrows -> R { try body(storage) }

    /// The secret as a string, for a header value sent to its provider. Never log the result.
    public func revealForUse() -> String { String(decoding: storage, as: UTF8.self) }

    /// Equality by constant-time comparison, so a timing side channel cannot reveal a prefix.
    public static func == (lhs: Secret, rhs: Secret) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.storage.indices { difference |= lhs.storage[index] ^ rhs.storage[index] }
        return difference == 0
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(storage.count) }
}

extension Secret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Secret(…)" }
    public var debugDescription: String { "Secret(…)" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
