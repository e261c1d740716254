import BatonCore
import BatonCrypto
import Foundation

/// App bearer tokens of the form `bt1.<payload>.<mac>`: a base64url JSON payload `{"sub","exp"}` and its
/// base64url HMAC-SHA256 under the backend's signing key.
///
/// Verification is constant-time over the MAC and rejects anything else: another version prefix, extra parts,
/// a payload that is not exactly `sub` + `exp`, an empty subject, or an expiry in the past.
public struct SignedTokenAuthenticator: Authenticator {
    private static let prefix = "bt1"
    private let key: Secret

    /// Creates an authenticator for tokens signed with `key`.
    public init(key: Secret) { self.key = key }

    /// Mints a token for `userID` valid until `expiry`.
    public func token(for userID: String, expiresAt expiry: Date) -> String {
        let payload = Payload(sub: userID, exp: Int64(expiry.timeIntervalSince1970.rounded(.down)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = Self.prefix + "." + Base64URL.encode(Array(try! encoder.encode(payload)))
        return body + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: Array(body.utf8), key: key))
    }

    public func authenticate(bearerToken: String, now: Date) -> AuthenticatedUser? {
        let parts = bearerToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.prefix, let mac = Base64URL.decode(parts[2]),
            let payloadBytes = Base64URL.decode(parts[1])
        else { return nil }
        let signed = Array(bearerToken.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard HMACSHA256.isValidAuthenticationCode(mac, for: signed, key: key),
            let payload = StrictJSONObject(payloadBytes, keys: ["sub", "exp"]), let subject = payload.string("sub"),
            let expiry = payload.integer("exp"), expiry > Int64(now.timeIntervalSince1970)
        else { return nil }
        return AuthenticatedUser(id: subject)
    }

    private struct Payload: Encodable {
        let sub: String
        let exp: Int64
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
