private import COpenSSL

/// The only Swift code that calls libcrypto. Every return code goes through ``check(_:_:)``; raw pointers
/// never leave this file, and the public types (`SHA256`, `HMACSHA256`, `AESGCM`, …) call in here.
enum LibCrypto {
    /// Turns a libcrypto status (1 = success) into `CryptoError`, clearing the thread's error queue so a
    /// stale entry never surfaces in an unrelated later call.
    @inline(__always)
    private static func check(_ status: Int32, _ code: CryptoError.Code = .libraryFailure) throws(CryptoError) {
        guard status == 1 else {
            ERR_clear_error()
            throw CryptoError(code)
        }
    }

    static func sha256(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let status = digest.withUnsafeMutableBufferPointer { out in
            EVP_Digest(message.baseAddress, message.count, out.baseAddress, &length, EVP_sha256(), nil)
        }
        // SHA-256 over memory cannot fail short of allocation failure inside libcrypto.
        precondition(status == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return digest
    }

    static func hmacSHA256(key: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        // HMAC() reads `key` only when its length is non-zero; give it a valid pointer either way.
        var empty: UInt8 = 0
        let result = mac.withUnsafeMutableBufferPointer { out in
            withUnsafeMutablePointer(to: &empty) { fallback in
                HMAC(
                    EVP_sha256(), key.baseAddress ?? UnsafeRawPointer(fallback), Int32(key.count),
                    message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count,
                    out.baseAddress, &length)
            }
        }
        precondition(result != nil && length == 32, "HMAC(SHA-256) failed")
        return mac
    }

    static func randomBytes(into buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        try check(RAND_bytes(base.assumingMemoryBound(to: UInt8.self), Int32(buffer.count)), .randomUnavailable)
    }

    static func constantTimeEquals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        return CRYPTO_memcmp(left, right, lhs.count) == 0
    }

    /// AES-256-GCM encryption with a caller-chosen 96-bit nonce; returns ciphertext followed by a 16-byte tag.
    static func aes256GCMSeal(
        key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer,
        plaintext: UnsafeRawBufferPointer
    ) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError(.libraryFailure) }
        defer { EVP_CIPHER_CTX_free(context) }
        try check(EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil))
        try check(baton_evp_gcm_set_ivlen(context, Int32(nonce.count)))
        try check(EVP_EncryptInit_ex(context, nil, nil, bytes(key), bytes(nonce)))
        return try gcmEncrypt(context, associatedData: associatedData, plaintext: plaintext)
    }

    /// The rest of a GCM encryption once `context` holds the key and nonce: associated data, plaintext, tag.
    private static func gcmEncrypt(
        _ context: OpaquePointer, associatedData: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer
    ) throws(CryptoError) -> [UInt8] {
        var length: Int32 = 0
        if associatedData.count > 0 {
            try check(EVP_EncryptUpdate(context, nil, &length, bytes(associatedData), Int32(associatedData.count)))
        }
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written = 0
        let status = withBaseAddress(of: &output) { out in
            var status: Int32 = 1
            if plaintext.count > 0 {
                status = EVP_EncryptUpdate(context, out, &length, bytes(plaintext), Int32(plaintext.count))
                written = Int(length)
            }
            if status == 1 {
                status = EVP_EncryptFinal_ex(context, out + written, &length)
                written += Int(length)
            }
            if status == 1 {
                status = baton_evp_gcm_get_tag(context, 16, out + written)
            }
            return status
        }
        try check(status)
        precondition(written == plaintext.count, "GCM wrote an unexpected length")
        return output
    }

    /// AES-256-GCM decryption of ciphertext-then-tag; any mismatch is `authenticationFailed`.
    static func aes256GCMOpen(
        key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer,
        ciphertextAndTag: UnsafeRawBufferPointer
    ) throws(CryptoError) -> [UInt8] {
        guard ciphertextAndTag.count >= 16 else { throw CryptoError(.authenticationFailed) }
        let ciphertextCount = ciphertextAndTag.count - 16
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError(.libraryFailure) }
        defer { EVP_CIPHER_CTX_free(context) }
        try check(EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil))
        try check(baton_evp_gcm_set_ivlen(context, Int32(nonce.count)))
        try check(EVP_DecryptInit_ex(context, nil, nil, bytes(key), bytes(nonce)))
        var length: Int32 = 0
        if associatedData.count > 0 {
            try check(EVP_DecryptUpdate(context, nil, &length, bytes(associatedData), Int32(associatedData.count)))
        }
        var output = [UInt8](repeating: 0, count: max(ciphertextCount, 1))
        var tag = Array(UnsafeRawBufferPointer(rebasing: ciphertextAndTag[ciphertextCount...]))
        let status = withBaseAddress(of: &output) { out in
            var status: Int32 = 1
            var written = 0
            if ciphertextCount > 0 {
                status = EVP_DecryptUpdate(context, out, &length, bytes(ciphertextAndTag), Int32(ciphertextCount))
                written = Int(length)
            }
            if status == 1 {
                status = tag.withUnsafeMutableBufferPointer { baton_evp_gcm_set_tag(context, 16, $0.baseAddress) }
            }
            if status == 1 { status = EVP_DecryptFinal_ex(context, out + written, &length) }
            return status
        }
        guard status == 1 else {
            output.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
            try check(status, .authenticationFailed)
            return []
        }
        output.removeLast(output.count - ciphertextCount)
        return output
    }

    /// HMAC-SHA256 of `message` under a key already absorbed into `prepared`: a copy of its state per code, so the
    /// key's inner and outer pads are not derived again, nor HMAC and SHA-256 looked up by name (OpenSSL 3's
    /// `HMAC()` does both on every call; docs/reliability-history.md has the timings).
    static func hmacSHA256(prepared: PreparedContext, message: UnsafeRawBufferPointer) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        var length = 0
        let context = EVP_MAC_CTX_dup(OpaquePointer(prepared.handle))
        defer { EVP_MAC_CTX_free(context) }
        let status = mac.withUnsafeMutableBufferPointer { out in
            guard context != nil else { return Int32(0) }
            if message.count > 0,
                EVP_MAC_update(context, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count) != 1
            {
                return 0
            }
            return EVP_MAC_final(context, out.baseAddress, &length, 32)
        }
        precondition(status == 1 && length == 32, "HMAC(SHA-256) failed")
        return mac
    }

    /// An HMAC-SHA256 state with `key` absorbed, for ``hmacSHA256(prepared:message:)``.
    static func prepareHMACSHA256(key: UnsafeRawBufferPointer) -> PreparedContext {
        let mac = EVP_MAC_fetch(nil, "HMAC", nil)
        defer { EVP_MAC_free(mac) }
        guard let context = EVP_MAC_CTX_new(mac) else { fatalError("EVP_MAC_CTX_new failed: out of memory") }
        var empty: UInt8 = 0
        let status = "SHA256".withCString { digest in
            withUnsafeMutablePointer(to: &empty) { fallback in
                baton_hmac_init(
                    context, key.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(fallback),
                    key.count, digest)
            }
        }
        precondition(status == 1, "HMAC(SHA-256) key setup failed")
        return PreparedContext(handle: UnsafeMutableRawPointer(context), free: freeMACContext)
    }

    /// An AES-256-GCM encryption state with `key` expanded (no nonce yet), for the prepared seal below.
    static func prepareAES256GCM(key: UnsafeRawBufferPointer) throws(CryptoError) -> PreparedContext {
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError(.libraryFailure) }
        let prepared = PreparedContext(handle: UnsafeMutableRawPointer(context), free: freeCipherContext)
        try check(EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, bytes(key), nil))
        return prepared
    }

    /// AES-256-GCM encryption with a 96-bit nonce under the key in `prepared` (a copy of its expanded key schedule
    /// per message, instead of setting the key up each time; docs/reliability-history.md has the timings); returns ciphertext
    /// followed by a 16-byte tag, byte for byte what ``aes256GCMSeal(key:nonce:associatedData:plaintext:)`` gives.
    static func aes256GCMSeal(
        prepared: PreparedContext, nonce: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer,
        plaintext: UnsafeRawBufferPointer
    ) throws(CryptoError) -> [UInt8] {
        precondition(nonce.count == 12, "AES-GCM nonce must be 12 bytes")
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError(.libraryFailure) }
        defer { EVP_CIPHER_CTX_free(context) }
        try check(EVP_CIPHER_CTX_copy(context, OpaquePointer(prepared.handle)))
        try check(EVP_EncryptInit_ex(context, nil, nil, nil, bytes(nonce)))
        return try gcmEncrypt(context, associatedData: associatedData, plaintext: plaintext)
    }

    /// Overwrites `buffer` in a way the optimiser may not remove.
    static func cleanse(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        OPENSSL_cleanse(base, buffer.count)
    }

    /// Runs `body` on the start of `array`'s storage and returns its libcrypto status. The arrays given here are
    /// never empty, so the storage has an address; were it missing, the status is 0 (a failure), never a trap.
    private static func withBaseAddress(
        of array: inout [UInt8], _ body: (UnsafeMutablePointer<UInt8>) -> Int32
    ) -> Int32 {
        array.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map(body) ?? 0 }
    }

    private static func bytes(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}

/// A libcrypto context set up once (a key absorbed) and then only copied from: ``LibCrypto`` makes a fresh copy for
/// every operation, so this one is never written after `init`.
///
/// `@unchecked Sendable` because it holds an `EVP_MAC_CTX *` or `EVP_CIPHER_CTX *`, which Swift cannot check: the
/// pointer is immutable, the context is only read after setup (`EVP_MAC_CTX_dup` and `EVP_CIPHER_CTX_copy` read their
/// source and write only the copy, so concurrent copies are safe), and it is freed once, in `deinit`.
final class PreparedContext: @unchecked Sendable {
    fileprivate let handle: UnsafeMutableRawPointer
    private let free: @convention(c) (UnsafeMutableRawPointer) -> Void

    fileprivate init(handle: UnsafeMutableRawPointer, free: @convention(c) (UnsafeMutableRawPointer) -> Void) {
        self.handle = handle
        self.free = free
    }

    deinit { free(handle) }
}

private func freeMACContext(_ handle: UnsafeMutableRawPointer) { EVP_MAC_CTX_free(OpaquePointer(handle)) }

private func freeCipherContext(_ handle: UnsafeMutableRawPointer) { EVP_CIPHER_CTX_free(OpaquePointer(handle)) }
