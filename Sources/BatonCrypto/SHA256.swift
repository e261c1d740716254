import Foundation

/// SHA-256 (FIPS 180-4), computed by libcrypto.
public enum SHA256 {
    /// Number of bytes in a digest.
    public static let byteCount = 32

    /// The 32-byte digest of `message`.
    public static func hash(_ message: some ContiguousBytes) -> [UInt8] {
        message.withUnsafeBytes { LibCrypto.sha256($0) }
    }

    /// The digest of `message` as 64 lowercase hex characters (request fingerprints, asset names).
    public static func hexDigest(_ message: some ContiguousBytes) -> String {
        Hex.encode(hash(message))
    }

    /// The digest of the UTF-8 bytes of `string` as lowercase hex.
    public static func hexDigest(utf8 string: String) -> String {
        hexDigest(Array(string.utf8))
    }
}
