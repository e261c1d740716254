import BatonCore
import BatonCrypto

/// Seals idempotent responses at rest with AES-256-GCM under the current sealing key, bound to their owner, and
/// opens them with the current key or any retired one still configured.
///
/// A sealed response is `"BSK" 0x01 ‖ key id (8 bytes) ‖ nonce ‖ ciphertext ‖ tag`; the key id is the first 8 bytes
/// of `HMAC-SHA256(key, "baton.sealing-key-id.v1")` (it names the key without revealing it). The associated data is
/// the user, the `Idempotency-Key` and that header, so a sealed response copied onto another user's or another key's
/// record does not open. Responses sealed before key ids existed (a bare AES-GCM box under the v1 binding) still
/// open with any configured key. A response no configured key opens (sealed under a key since dropped from the
/// configuration, or damaged) is reported as `nil`: the caller answers it as expired (410), never 500.
struct ResponseSealer: Sendable {
    private static let magic: [UInt8] = [0x42, 0x53, 0x4B, 0x01]
    private static let idByteCount = 8

    private struct Key: Sendable {
        let id: [UInt8]
        let secret: Secret
    }

    private let current: Key
    /// The current key set up once for sealing, or why it cannot seal (a key of the wrong size), thrown by each seal.
    private let sealing: Result<AESGCM.PreparedKey, CryptoError>
    private let all: [Key]

    /// Seals with `current`; opens with `current` and each of `previous`.
    init(current: Secret, previous: [Secret] = []) {
        let current = Key(id: Self.keyID(current), secret: current)
        self.current = current
        self.sealing = Result { () throws(CryptoError) in try AESGCM.PreparedKey(current.secret) }
        self.all = [current] + previous.map { Key(id: Self.keyID($0), secret: $0) }
    }

    /// The id stored with every response sealed under `key`.
    static func keyID(_ key: Secret) -> [UInt8] {
        Array(HMACSHA256.authenticationCode(for: Array("baton.sealing-key-id.v1".utf8), key: key).prefix(idByteCount))
    }

    func seal(_ plaintext: [UInt8], user: String, key idempotencyKey: String) throws(CryptoError) -> [UInt8] {
        let header = Self.magic + current.id
        let binding = Self.binding(user, idempotencyKey, header: header)
        return header + (try sealing.get().seal(plaintext, associatedData: binding))
    }

    /// The plaintext, or `nil` when no configured key opens `sealed` for this user and key.
    func open(_ sealed: [UInt8], user: String, key idempotencyKey: String) -> [UInt8]? {
        let headerCount = Self.magic.count + Self.idByteCount
        if sealed.count > headerCount, sealed.starts(with: Self.magic) {
            let header = Array(sealed.prefix(headerCount))
            let id = Array(header.suffix(Self.idByteCount))
            if let key = all.first(where: { $0.id == id }),
                let plaintext = try? AESGCM.open(
                    Array(sealed.dropFirst(headerCount)), key: key.secret,
                    associatedData: Self.binding(user, idempotencyKey, header: header))
            {
                return plaintext
            }
        }
        // Sealed before key ids (or a legacy box whose random nonce happens to start like a header).
        let legacy = Self.legacyBinding(user, idempotencyKey)
        for key in all {
            if let plaintext = try? AESGCM.open(sealed, key: key.secret, associatedData: legacy) { return plaintext }
        }
        return nil
    }

    private static func binding(_ user: String, _ key: String, header: [UInt8]) -> [UInt8] {
        Array("baton.handoff-session.v2\u{0}\(user)\u{0}\(key)\u{0}".utf8) + header
    }

    /// What responses sealed before key ids were bound to.
    static func legacyBinding(_ user: String, _ key: String) -> [UInt8] {
        Array("baton.handoff-session.v1\u{0}\(user)\u{0}\(key)".utf8)
    }
}
