import BatonCore
import BatonCrypto

/// Seals idempotent responses at rest with AES-256-GCM under the configured key, bound to their owner.
///
/// The associated data is the user and the `Idempotency-Key`, so a sealed response copied onto another user's or
/// another key's record does not open.
struct ResponseSealer: Sendable {
    let key: Secret

    func seal(_ plaintext: [UInt8], user: String, key idempotencyKey: String) throws(CryptoError) -> [UInt8] {
        try AESGCM.seal(plaintext, key: key, associatedData: Self.binding(user, idempotencyKey))
    }

    func open(_ sealed: [UInt8], user: String, key idempotencyKey: String) throws(CryptoError) -> [UInt8] {
        try AESGCM.open(sealed, key: key, associatedData: Self.binding(user, idempotencyKey))
    }

    private static func binding(_ user: String, _ key: String) -> [UInt8] {
        Array("baton.handoff-session.v1\u{0}\(user)\u{0}\(key)".utf8)
    }
}
