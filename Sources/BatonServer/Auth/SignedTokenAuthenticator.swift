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
            let payload = try? JSONDecoder().decode(Payload.self, from: Data(payloadBytes)),
            !payload.sub.isEmpty, payload.exp > Int64(now.timeIntervalSince1970)
        else { return nil }
        return AuthenticatedUser(id: payload.sub)
    }

    private struct Payload: Codable {
        let sub: String
        let exp: Int64

        init(sub: String, exp: Int64) {
            self.sub = sub
            self.exp = exp
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard container.allKeys.count == 2 else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unexpected claims"))
            }
            sub = try container.decode(String.self, forKey: .sub)
            exp = try container.decode(Int64.self, forKey: .exp)
        }
    }
}

/// RFC 4648 §5 base64url without padding.
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
