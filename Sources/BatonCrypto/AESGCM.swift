import BatonCore
import Foundation

/// AES-256-GCM authenticated encryption, as used to keep idempotent responses sealed at rest.
///
/// A sealed box is `nonce (12 bytes) || ciphertext || tag (16 bytes)`. Every call to ``seal(_:key:associatedData:)``
/// draws a fresh random 96-bit nonce, so one key may seal many messages (stay well under 2³² per key).
public enum AESGCM {
    /// Key length in bytes (AES-256).
    public static let keyByteCount = 32
    /// Nonce length in bytes (96 bits).
    public static let nonceByteCount = 12
    /// Tag length in bytes (128 bits).
    public static let tagByteCount = 16

    /// Encrypts and authenticates `plaintext`, binding `associatedData` (authenticated, not encrypted).
    ///
    /// - Returns: `nonce || ciphertext || tag`.
    public static func seal(
        _ plaintext: some ContiguousBytes, key: Secret, associatedData: some ContiguousBytes = [UInt8]()
    ) throws(CryptoError) -> [UInt8] {
        let nonce = try SecureRandom.bytes(count: nonceByteCount)
        return try seal(plaintext, key: key, nonce: nonce, associatedData: associatedData)
    }

    /// Decrypts a box made by ``seal(_:key:associatedData:)``.
    ///
    /// - Throws: `CryptoError(.authenticationFailed)` if the box is truncated or any byte of it, or of
    ///   `associatedData`, differs from what was sealed; `.invalidKeySize` for a key that is not 32 bytes.
    public static func open(
        _ sealedBox: some ContiguousBytes, key: Secret, associatedData: some ContiguousBytes = [UInt8]()
    ) throws(CryptoError) -> [UInt8] {
        guard key.count == keyByteCount else { throw CryptoError(.invalidKeySize) }
        let result: Result<[UInt8], CryptoError> = sealedBox.withUnsafeBytes { box in
            guard box.count >= nonceByteCount + tagByteCount else {
                return .failure(CryptoError(.authenticationFailed))
            }
            let nonce = UnsafeRawBufferPointer(rebasing: box[..<nonceByteCount])
            let body = UnsafeRawBufferPointer(rebasing: box[nonceByteCount...])
            return key.withBytes { keyBytes in
                keyBytes.withUnsafeBytes { keyBuffer in
                    associatedData.withUnsafeBytes { aad in
                        Result { () throws(CryptoError) in
                            try LibCrypto.aes256GCMOpen(
                                key: keyBuffer, nonce: nonce, associatedData: aad, ciphertextAndTag: body)
                        }
                    }
                }
            }
        }
        return try result.get()
    }

    /// Seals with a caller-supplied nonce. Only for known-answer tests: reusing a nonce under one key breaks GCM.
    static func seal(
        _ plaintext: some ContiguousBytes, key: Secret, nonce: [UInt8], associatedData: some ContiguousBytes
    ) throws(CryptoError) -> [UInt8] {
        guard key.count == keyByteCount else { throw CryptoError(.invalidKeySize) }
        precondition(nonce.count == nonceByteCount, "AES-GCM nonce must be 12 bytes")
        let result: Result<[UInt8], CryptoError> = key.withBytes { keyBytes in
            keyBytes.withUnsafeBytes { keyBuffer in
                nonce.withUnsafeBytes { nonceBuffer in
                    associatedData.withUnsafeBytes { aad in
                        plaintext.withUnsafeBytes { input in
                            Result { () throws(CryptoError) in
                                try LibCrypto.aes256GCMSeal(
                                    key: keyBuffer, nonce: nonceBuffer, associatedData: aad, plaintext: input)
                            }
                        }
                    }
                }
            }
        }
        return nonce + (try result.get())
    }
}

extension AESGCM {
    /// A key set up once for sealing many messages (the current sealing key): each seal starts from a copy of the
    /// expanded key instead of expanding it again. Boxes are the same format as ``AESGCM/seal(_:key:associatedData:)``
    /// makes, and open with ``AESGCM/open(_:key:associatedData:)``.
    public struct PreparedKey: Sendable {
        private let context: PreparedContext

        /// Sets `key` up; `.invalidKeySize` unless it is 32 bytes.
        public init(_ key: Secret) throws(CryptoError) {
            guard key.count == keyByteCount else { throw CryptoError(.invalidKeySize) }
            let result: Result<PreparedContext, CryptoError> = key.withBytes { bytes in
                bytes.withUnsafeBytes { buffer in
                    Result { () throws(CryptoError) in try LibCrypto.prepareAES256GCM(key: buffer) }
                }
            }
            context = try result.get()
        }

        /// Encrypts and authenticates `plaintext` under a fresh random nonce; returns `nonce || ciphertext || tag`.
        public func seal(
            _ plaintext: some ContiguousBytes, associatedData: some ContiguousBytes = [UInt8]()
        ) throws(CryptoError) -> [UInt8] {
            try seal(plaintext, nonce: try SecureRandom.bytes(count: nonceByteCount), associatedData: associatedData)
        }

        /// Seals with a caller-supplied nonce. Only for known-answer tests: reusing a nonce under one key breaks GCM.
        func seal(
            _ plaintext: some ContiguousBytes, nonce: [UInt8], associatedData: some ContiguousBytes
        ) throws(CryptoError) -> [UInt8] {
            let result: Result<[UInt8], CryptoError> = nonce.withUnsafeBytes { nonceBuffer in
                associatedData.withUnsafeBytes { aad in
                    plaintext.withUnsafeBytes { input in
                        Result { () throws(CryptoError) in
                            try LibCrypto.aes256GCMSeal(
                                prepared: context, nonce: nonceBuffer, associatedData: aad, plaintext: input)
                        }
                    }
                }
            }
            return nonce + (try result.get())
        }
    }
}
