import Foundation

/// A key or secret (provider API key, webhook secret, signing key) that never prints itself.
///
/// `description`, `debugDescription` and `dump` show `Secret(…)`. Its bytes are reached only through
/// ``withBytes(_:)`` or ``revealForUse()``, both easy to grep for. Not `Encodable`.
///
/// The bytes live in a private buffer that no other value shares; it is overwritten with zeros when the last
/// copy of the `Secret` is released. Copies of a `Secret` share that buffer (it is never mutated while alive),
/// so value semantics hold.
public struct Secret: Sendable, Hashable {
    private let box: SecretStorage
    private var storage: [UInt8] { box.bytes }

    /// Wraps the UTF-8 bytes of `string`.
    public init(_ string: String) { self.box = SecretStorage(copying: Array(string.utf8)) }

    /// Wraps raw key bytes (copied; the caller's array is left as it was).
    public init(bytes: [UInt8]) { self.box = SecretStorage(copying: bytes) }

    /// Number of bytes, for length checks; safe to print.
    public var count: Int { storage.count }

    /// Calls `body` with the key bytes. Do not let them escape.
    ///
    /// `body` sees a temporary copy that is zeroed when it returns (a copy `body` kept stays intact).
    public func withBytes<R>(_ body: ([UInt8]) throws -> R) rethrows -> R {
        var copy = SecretStorage.uniqueCopy(of: storage)
        defer { SecretStorage.wipe(&copy) }
        return try body(copy)
    }

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

/// The heap buffer behind a `Secret`: owned by exactly one box, never handed out, zeroed in `deinit`.
private final class SecretStorage: Sendable {
    let bytes: [UInt8]

    init(copying source: [UInt8]) { self.bytes = Self.uniqueCopy(of: source) }

    deinit {
        // `bytes` is referenced only by this box (see `uniqueCopy`), and this is its last use.
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return }
            Self.zero(UnsafeMutableRawPointer(mutating: base), buffer.count)
        }
    }

    /// A copy in a freshly allocated buffer, so zeroing it can never touch another array's storage.
    static func uniqueCopy(of source: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: source.count) { buffer, initialized in
            _ = buffer.initialize(from: source)
            initialized = source.count
        }
    }

    /// Zeros `bytes` in place if no one else holds its buffer (otherwise the write copies and the holder keeps
    /// its bytes, as value semantics require).
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return }
            zero(base, buffer.count)
        }
    }

    /// A zeroing write the optimiser may not drop.
    private static func zero(_ pointer: UnsafeMutableRawPointer, _ count: Int) {
        #if canImport(Darwin)
        _ = memset_s(pointer, count, 0, count)
        #else
        explicit_bzero(pointer, count)
        #endif
    }
}
