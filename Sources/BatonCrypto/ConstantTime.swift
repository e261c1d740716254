import Foundation

/// Comparisons whose running time does not depend on where two byte strings differ.
public enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes (`CRYPTO_memcmp`). Lengths are compared first, in the open:
    /// only use this where the length is public (MACs, digests).
    public static func equals(_ lhs: some ContiguousBytes, _ rhs: some ContiguousBytes) -> Bool {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { LibCrypto.constantTimeEquals(left, $0) } }
    }

    /// Overwrites `bytes` with zeros in a way the optimiser keeps (`OPENSSL_cleanse`), leaving the count unchanged.
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { LibCrypto.cleanse($0) }
    }
}
