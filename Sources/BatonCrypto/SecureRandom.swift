import BatonCore

/// Cryptographically secure random bytes from libcrypto's DRBG (`RAND_bytes`).
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        precondition(count >= 0, "negative byte count")
        var output = [UInt8](repeating: 0, count: count)
        let result: Result<Void, CryptoError> = output.withUnsafeMutableBytes { buffer in
            Result { () throws(CryptoError) in try LibCrypto.randomBytes(into: buffer) }
        }
        try result.get()
        return output
    }

    /// A fresh random key of `count` bytes (32 for AES-256 or HMAC-SHA256), wrapped so it never prints.
    public static func key(count: Int = 32) throws(CryptoError) -> Secret {
        var bytes = try self.bytes(count: count)
        defer { ConstantTime.wipe(&bytes) }
        return Secret(bytes: bytes)
    }
}
