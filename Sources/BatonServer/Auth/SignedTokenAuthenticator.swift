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
/// an unknown key id, a wrong MAC, another audience, or an expiry in the past.
public struct SignedTokenAuthenticator: Authenticator {
    private static let prefix = "bt1"
    private let keys: TokenKeyRing
    private let audience: String

    /// Creates an authenticator for tokens signed with `key` (or one of `previousKeys`) for `audience`.
    public init(key: Secret, previousKeys: [Secret] = [], audience: String = "baton") {
        self.keys = TokenKeyRing(current: key, previous: previousKeys)
        self.audience = audience
    }

    /// Creates the authenticator a backend with `configuration` uses: its signing key ring and audience.
    public init(configuration: BackendConfiguration) {
        self.init(
            key: configuration.tokenSigningKey, previousKeys: configuration.previousTokenSigningKeys,
            audience: configuration.tokenAudience)
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
        let parts = bearerToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.prefix, let mac = Base64URL.decode(parts[2]),
            let payloadBytes = Base64URL.decode(parts[1]),
            let payload = StrictJSONObject(payloadBytes, keys: ["aud", "exp", "iat", "kid", "sub"]),
            let subject = payload.string("sub"), !subject.unicodeScalars.contains(where: \.properties.isControlLike),
            let expiry = payload.integer("exp"), payload.integer("iat") != nil,
            let keyID = payload.string("kid"), let tokenAudience = payload.string("aud")
        else { return .refused(.malformed) }
        guard let key = keys.key(id: keyID) else { return .refused(.unknownKey) }
        let signed = Array(bearerToken.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard HMACSHA256.isValidAuthenticationCode(mac, for: signed, key: key) else { return .refused(.badSignature) }
        guard tokenAudience == audience else { return .refused(.wrongAudience) }
        guard expiry > Int64(now.timeIntervalSince1970) else { return .refused(.expired) }
        return .accepted(AuthenticatedUser(id: subject))
    }
}

extension Unicode.Scalar.Properties {
    /// C0 and C1 controls and DEL: never part of a user id (a NUL would cut it short in C APIs).
    fileprivate var isControlLike: Bool { generalCategory == .control }
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

    init(current: Secret, previous: [Secret]) {
        self.current = current
        currentID = Self.id(of: current)
        var byID: [String: Secret] = [:]
        for key in previous { byID[Self.id(of: key)] = key }
        byID[currentID] = current
        self.byID = byID
    }

    /// The key with `id`, if the ring holds it.
    func key(id: String) -> Secret? { byID[id] }

    static func id(of key: Secret) -> String {
        Hex.encode(HMACSHA256.authenticationCode(for: Array("baton token key id".utf8), key: key).prefix(8))
    }
}

/// RFC 4648 §5 base64url without padding, on bytes (the Foundation route through standard base64 and three
/// `replacingOccurrences` cost more than the HMAC on every authenticated request).
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Each byte's 6-bit value, or 0xFF for a byte outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            if remaining > 1 { out.append(alphabet[Int(group >> 6 & 63)]) }
            if remaining > 2 { out.append(alphabet[Int(group & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` encodes, or `nil` for any character outside the alphabet, padding, or an impossible length
    /// (one character left over) or non-zero trailing bits (so every byte string has exactly one encoding).
    static func decode(_ text: Substring) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in input {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }
}
