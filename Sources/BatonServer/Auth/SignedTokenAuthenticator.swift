import BatonCore
import BatonCrypto
import Foundation

/// App bearer tokens of the form `bt1.<payload>.<mac>`: a base64url JSON payload `{"aud","exp","iat","kid","sub"}`
/// and its base64url HMAC-SHA256 under the signing key that `kid` names.
///
/// Tokens are minted with the current key; they are verified with the current key or any older key still in the
/// ring (``TokenKeyRing``), chosen by `kid`, so the signing key can be rotated without signing everyone out. `aud`
/// must be this backend's audience (`tokens.audience`, by default `server.publicOrigin`). Verification is
/// constant-time over the MAC, and refuses anything else with a reason (``TokenRefusal``): another version prefix,
/// extra parts, a payload that is not exactly those five members, an empty subject or one with a control character,
/// an unknown key id, a wrong MAC, another audience, an expiry in the past, an `iat` further in the future than the
/// clock skew allowance or further in the past than the maximum lifetime, or a retired key past its end date.
public struct SignedTokenAuthenticator: Authenticator {
    private static let prefix = "bt1"
    /// The members of a token payload, exactly (built once, not per request).
    private static let payloadNames: Set<String> = ["aud", "exp", "iat", "kid", "sub"]
    private let keys: TokenKeyRing
    private let audience: String
    private let clockSkew: Int64
    private let maxLifetime: Int64?

    /// Creates an authenticator for tokens signed with `key` (or one of `previousKeys`, which never end) for
    /// `audience`.
    public init(key: Secret, previousKeys: [Secret] = [], audience: String = "baton") {
        self.init(key: key, retiredKeys: previousKeys.map { RetiredTokenKey(key: $0) }, audience: audience)
    }

    /// Creates an authenticator for tokens signed with `key` or one of `retiredKeys` (each until its end, if it has
    /// one) for `audience`; a token whose `iat` is more than `clockSkew` seconds ahead of now, or (with
    /// `maxLifetime`) more than `maxLifetime` seconds behind it, is refused.
    public init(
        key: Secret, retiredKeys: [RetiredTokenKey], audience: String, clockSkew: TimeInterval = 60,
        maxLifetime: TimeInterval? = nil
    ) {
        self.keys = TokenKeyRing(current: key, previous: retiredKeys)
        self.audience = audience
        self.clockSkew = Int64(clockSkew)
        self.maxLifetime = maxLifetime.map { Int64($0) }
    }

    /// Creates the authenticator a backend with `configuration` uses: its signing key ring, audience, clock skew
    /// allowance and maximum token lifetime.
    public init(configuration: BackendConfiguration) {
        self.init(
            key: configuration.tokenSigningKey, retiredKeys: configuration.previousTokenSigningKeys,
            audience: configuration.tokenAudience, clockSkew: configuration.tokenClockSkew,
            maxLifetime: configuration.tokenMaxLifetime)
    }

    /// Mints a token for `userID` valid until `expiry`, issued at `issuedAt`, signed with the current key.
    public func token(for userID: String, expiresAt expiry: Date, issuedAt: Date = Date()) -> String {
        var payload = JSONText()
        payload.field("aud", audience)
        payload.field("exp", Int(expiry.timeIntervalSince1970.rounded(.down)))
        payload.field("iat", Int(issuedAt.timeIntervalSince1970.rounded(.down)))
        payload.field("kid", keys.currentID)
        payload.field("sub", userID)
        let body = Self.prefix + "." + Base64URL.encode(payload.finishBytes())
        return body + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: Array(body.utf8), key: keys.current))
    }

    public func authenticate(bearerToken: String, now: Date) -> AuthenticatedUser? {
        verify(bearerToken: bearerToken, now: now).user
    }

    public func verify(bearerToken: String, now: Date) -> TokenVerification {
        // Split on the bytes: a `Character` split walks grapheme clusters. Only an all-ASCII token can pass the
        // checks below, and for one the two splits agree.
        let parts = bearerToken.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            .map { Substring($0) }
        guard parts.count == 3, parts[0] == Self.prefix, let mac = Base64URL.decode(parts[2]),
            let payloadBytes = Base64URL.decode(parts[1]),
            let payload = StrictJSONObject(payloadBytes, keys: Self.payloadNames),
            let subject = payload.string("sub"), !Self.hasControlCharacter(subject),
            let expiry = payload.integer("exp"), let issuedAt = payload.integer("iat"),
            let keyID = payload.string("kid"), let tokenAudience = payload.string("aud")
        else { return .refused(.malformed) }
        guard let key = keys.preparedKey(id: keyID) else { return .refused(.unknownKey) }
        let signed = Array(bearerToken.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard key.isValidAuthenticationCode(mac, for: signed) else { return .refused(.badSignature) }
        guard tokenAudience == audience else { return .refused(.wrongAudience) }
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        if let end = keys.end(id: keyID), now >= end { return .refused(.retiredKey) }
        guard expiry > seconds else { return .refused(.expired) }
        guard issuedAt <= seconds + clockSkew else { return .refused(.issuedInFuture) }
        if let maxLifetime, issuedAt < seconds - maxLifetime { return .refused(.tooOld) }
        return .accepted(AuthenticatedUser(id: subject))
    }
}

/// A token signing key retired from signing, still accepted by key id until `notAfter` (forever when `nil`).
public struct RetiredTokenKey: Sendable {
    /// The key.
    public var key: Secret
    /// The instant from which it no longer verifies.
    public var notAfter: Date?

    /// Creates a value.
    public init(key: Secret, notAfter: Date? = nil) {
        self.key = key
        self.notAfter = notAfter
    }
}

extension SignedTokenAuthenticator {
    /// Whether `subject` holds a C0 or C1 control or DEL (``AuthenticatedUser/hasControlCharacter(_:)``).
    static func hasControlCharacter(_ subject: String) -> Bool { AuthenticatedUser.hasControlCharacter(subject) }
}

/// The token signing keys: the current one, which signs, and older ones still accepted, each found by its id.
///
/// A key's id is derived from the key (the first 8 bytes of HMAC-SHA256(key, "baton token key id"), hex), so
/// operators never assign or keep ids in step: an instance that has a key knows its id, and the id tells nothing
/// about the key.
struct TokenKeyRing: Sendable {
    let current: Secret
    let currentID: String
    private let byID: [String: Secret]
    /// When each retired key that has an end stops verifying.
    private let endByID: [String: Date]
    /// The same keys set up once for verifying (a copy of the keyed HMAC state per token).
    private let preparedByID: [String: HMACSHA256.PreparedKey]

    init(current: Secret, previous: [RetiredTokenKey]) {
        self.current = current
        currentID = Self.id(of: current)
        var byID: [String: Secret] = [:]
        var endByID: [String: Date] = [:]
        for retired in previous {
            let id = Self.id(of: retired.key)
            byID[id] = retired.key
            if let end = retired.notAfter { endByID[id] = end }
        }
        byID[currentID] = current
        endByID[currentID] = nil
        self.byID = byID
        self.endByID = endByID
        self.preparedByID = byID.mapValues { HMACSHA256.PreparedKey($0) }
    }

    /// When the retired key with `id` stops verifying, if it has an end.
    func end(id: String) -> Date? { endByID[id] }

    /// The key with `id`, if the ring holds it.
    func key(id: String) -> Secret? { byID[id] }

    /// The key with `id` set up for verifying, if the ring holds it.
    func preparedKey(id: String) -> HMACSHA256.PreparedKey? { preparedByID[id] }

    static func id(of key: Secret) -> String {
        Hex.encode(HMACSHA256.authenticationCode(for: Array("baton token key id".utf8), key: key).prefix(8))
    }
}
