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

extension HMACSHA256 {
    /// A key set up once for many codes (a token signing key, the provider-key secret): each code then starts from a
    /// copy of libcrypto's state with the key absorbed, instead of deriving it again. The codes are the same as
    /// ``HMACSHA256/authenticationCode(for:key:)`` gives for the same key.
    public struct PreparedKey: Sendable {
        private let context: PreparedContext

        /// Sets `key` up.
        public init(_ key: Secret) {
            context = key.withBytes { bytes in bytes.withUnsafeBytes { LibCrypto.prepareHMACSHA256(key: $0) } }
        }

        /// The 32-byte authentication code of `message`.
        public func authenticationCode(for message: some ContiguousBytes) -> [UInt8] {
            message.withUnsafeBytes { LibCrypto.hmacSHA256(prepared: context, message: $0) }
        }

        /// Whether `code` is the authentication code of `message`, compared in constant time.
        public func isValidAuthenticationCode(_ code: some ContiguousBytes, for message: some ContiguousBytes) -> Bool {
            ConstantTime.equals(authenticationCode(for: message), code)
        }
    }
}
