import BatonCore
import Foundation

/// HMAC-SHA256 (RFC 2104 with SHA-256), computed by libcrypto.
public enum HMACSHA256 {
    /// Number of bytes in a full-length code.
    public static let byteCount = 32

    /// The 32-byte authentication code of `message` under `key`.
    public static func authenticationCode(for message: some ContiguousBytes, key: Secret) -> [UInt8] {
        key.withBytes { keyBytes in
            keyBytes.withUnsafeBytes { keyBuffer in
                message.withUnsafeBytes { LibCrypto.hmacSHA256(key: keyBuffer, message: $0) }
            }
        }
    }

    /// Whether `code` is the authentication code of `message` under `key`, compared in constant time.
    ///
    /// A `code` of the wrong length is rejected without comparing.
    public static func isValidAuthenticationCode(
        _ code: some ContiguousBytes, for message: some ContiguousBytes, key: Secret
    ) -> Bool {
        ConstantTime.equals(authenticationCode(for: message, key: key), code)
    }
}
