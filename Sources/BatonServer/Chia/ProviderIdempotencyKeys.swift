import BatonCore
import BatonCrypto

/// Derives the `Idempotency-Key` the backend sends to a provider from the user and the key the app sent.
///
/// The app's key is scoped to its user on this backend, but a provider dedupes per partner: forwarding it unchanged
/// would let a second user who sends the first user's key and body receive the first user's journey. The key sent
/// upstream is therefore `HMAC-SHA256(secret, "baton.provider-idempotency.v1" ‖ purpose ‖ user ‖ app key)` (each
/// part length-prefixed), cut to 16 bytes and shaped as a canonical lowercase UUIDv4 (version and variant bits
/// set). It is deterministic: a retry after a crash, or on another instance with the same secret, derives the same
/// key, so the provider still dedupes it; and it reveals neither the user nor the app's key to the provider.
struct ProviderIdempotencyKeys: Sendable {
    /// Which provider call the key is for, so one app key never maps to the same upstream key for two calls.
    enum Purpose: String, Sendable {
        /// Chia `POST /v2/handoff-sessions`.
        case chiaHandoffSession = "chia.handoff-sessions"
    }

    /// The derivation secret (`BATON_IDEMPOTENCY_SECRET`, or the one derived from the token signing key), set up
    /// once for HMAC.
    private let secret: HMACSHA256.PreparedKey

    /// Derives keys under `secret`.
    init(secret: Secret) {
        self.secret = HMACSHA256.PreparedKey(secret)
    }

    /// The key to send to the provider for `user`'s request carrying `appKey`.
    func key(for purpose: Purpose, user: String, appKey: IdempotencyKey) -> IdempotencyKey {
        let parts = [Self.label, purpose.rawValue, user, appKey.rawValue]
        var message: [UInt8] = []
        message.reserveCapacity(parts.reduce(0) { $0 + $1.utf8.count + 4 })
        for part in parts {
            message.append(contentsOf: String(part.utf8.count).utf8)
            message.append(0x3A)
            message.append(contentsOf: part.utf8)
        }
        return IdempotencyKey(version4Bytes: secret.authenticationCode(for: message))
    }

    private static let label = "baton.provider-idempotency.v1"

    /// The secret used when `BATON_IDEMPOTENCY_SECRET` is not set: an HMAC of a fixed label under the token
    /// signing key, so existing deployments need no new variable (rotating that key then changes upstream keys).
    static func derivedSecret(fromTokenSigningKey key: Secret) -> Secret {
        Secret(bytes: HMACSHA256.authenticationCode(for: Array("baton.provider-idempotency-secret.v1".utf8), key: key))
    }
}
