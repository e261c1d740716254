import BatonCore
import BatonCrypto
import Foundation
import Testing

@testable import BatonServer

@Suite struct SignedTokenAuthenticatorTests {
    static let key = Secret(String(repeating: "k", count: 32))
    let authenticator = SignedTokenAuthenticator(key: key, audience: "https://partner.example")
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var kid: String { TokenKeyRing.id(of: Self.key) }

    @Test func aFreshTokenNamesItsUser() {
        let token = authenticator.token(for: "user-42", expiresAt: now.addingTimeInterval(60), issuedAt: now)
        #expect(authenticator.authenticate(bearerToken: token, now: now) == AuthenticatedUser(id: "user-42"))
    }

    @Test func aTokenCarriesAudienceIssuedAtAndKeyID() throws {
        let token = authenticator.token(for: "user-42", expiresAt: now.addingTimeInterval(60), issuedAt: now)
        let payload = try #require(Base64URL.decode(token.split(separator: ".")[1]))
        #expect(
            String(decoding: payload, as: UTF8.self)
                == #"{"aud":"https://partner.example","exp":1800000060,"iat":1800000000,"kid":"\#(kid)","sub":"user-42"}"#
        )
    }

    @Test func anExpiredTokenIsRefusedAsExpired() {
        let token = authenticator.token(for: "user-42", expiresAt: now, issuedAt: now.addingTimeInterval(-60))
        #expect(authenticator.verify(bearerToken: token, now: now) == .refused(.expired))
    }

    @Test func aTokenFromAnotherKeyIsAnUnknownKey() {
        let other = SignedTokenAuthenticator(
            key: Secret(String(repeating: "x", count: 32)), audience: "https://partner.example")
        let token = other.token(for: "user-42", expiresAt: now.addingTimeInterval(60), issuedAt: now)
        #expect(authenticator.verify(bearerToken: token, now: now) == .refused(.unknownKey))
    }

    @Test func aTokenForAnotherAudienceIsRefused() {
        let staging = SignedTokenAuthenticator(key: Self.key, audience: "https://staging.partner.example")
        let token = staging.token(for: "user-42", expiresAt: now.addingTimeInterval(60), issuedAt: now)
        #expect(authenticator.verify(bearerToken: token, now: now) == .refused(.wrongAudience))
    }

    @Test func aRotatedKeyKeepsOlderTokensValidAndSignsWithTheNewOne() {
        let newKey = Secret(String(repeating: "n", count: 32))
        let rotated = SignedTokenAuthenticator(
            key: newKey, previousKeys: [Self.key], audience: "https://partner.example")
        let old = authenticator.token(for: "user-42", expiresAt: now.addingTimeInterval(60), issuedAt: now)
        #expect(rotated.verify(bearerToken: old, now: now) == .accepted(AuthenticatedUser(id: "user-42")))
        let fresh = rotated.token(for: "user-7", expiresAt: now.addingTimeInterval(60), issuedAt: now)
        #expect(rotated.verify(bearerToken: fresh, now: now) == .accepted(AuthenticatedUser(id: "user-7")))
        // The old ring does not know the new key: the new token is refused there by key id, not by signature.
        #expect(authenticator.verify(bearerToken: fresh, now: now) == .refused(.unknownKey))
        // Once the old key leaves the ring, its tokens stop working.
        let retired = SignedTokenAuthenticator(key: newKey, audience: "https://partner.example")
        #expect(retired.verify(bearerToken: old, now: now) == .refused(.unknownKey))
    }

    @Test func aTamperedPayloadIsABadSignature() {
        let token = authenticator.token(for: "user-42", expiresAt: now.addingTimeInterval(60), issuedAt: now)
        let parts = token.split(separator: ".")
        let forged = #"{"aud":"https://partner.example","exp":1900000000,"iat":1,"kid":"\#(kid)","sub":"admin"}"#
        let forgedPayload = Base64URL.encode(Array(forged.utf8))
        #expect(
            authenticator.verify(bearerToken: "\(parts[0]).\(forgedPayload).\(parts[2])", now: now)
                == .refused(.badSignature))
    }

    /// A token whose MAC is right for `payload`, whatever the payload says.
    private func signed(_ payload: String) -> String {
        let body = "bt1." + Base64URL.encode(Array(payload.utf8))
        return body + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: Array(body.utf8), key: Self.key))
    }

    private func payload(sub: String = #""user-42""#, exp: String = "1900000000", extra: String = "") -> String {
        #"{"aud":"https://partner.example","exp":\#(exp),"iat":1800000000,"kid":"\#(kid)","sub":\#(sub)\#(extra)}"#
    }

    @Test func signedPayloadsInAnySpellingNameTheirUser() {
        let spellings = [
            payload(),
            #" { "sub" : "\u0075ser-42" , "kid":"\#(kid)", "iat": 1800000000, "exp" : 1900000000, "aud": "https:\/\/partner.example" } "#,
        ]
        for spelling in spellings {
            #expect(
                authenticator.authenticate(bearerToken: signed(spelling), now: now) == AuthenticatedUser(id: "user-42"))
        }
    }

    @Test func signedButMalformedPayloadsAreMalformed() {
        let malformed = [
            payload(sub: #""""#), payload(sub: "7"), payload(exp: #""1900000000""#), payload(exp: "1900000000.5"),
            payload(exp: "1.9e9"), payload(extra: #","admin":true"#), payload(extra: #","sub":"admin""#),
            payload(sub: #""victim\u0000x""#), payload(sub: #""a\nb""#),
            payload(extra: #","iat":1"#),
            payload(exp: "1900000000", extra: "").replacingOccurrences(of: #""iat":1800000000"#, with: #""iat":"now""#),
            #"{"exp":1900000000,"sub":"user-42"}"#, "[]", "",
        ]
        for text in malformed {
            #expect(authenticator.verify(bearerToken: signed(text), now: now) == .refused(.malformed), "\(text)")
        }
    }

    /// The token is split on its bytes, not its characters: a dot that a combining mark joins into one grapheme, or
    /// any non-ASCII byte, still ends up refused as malformed, never accepted.
    @Test func nonASCIITokensAreMalformedWhereverTheDotsFall() {
        let token = authenticator.token(for: "user-42", expiresAt: now.addingTimeInterval(60), issuedAt: now)
        let parts = token.split(separator: ".").map(String.init)
        let variants = [
            parts[0] + ".\u{301}" + parts[1] + "." + parts[2], parts[0] + "." + parts[1] + ".\u{301}" + parts[2],
            parts[0] + "\u{301}." + parts[1] + "." + parts[2], token + "\u{301}", "\u{301}" + token,
            parts[0] + "." + parts[1] + "\u{2024}" + parts[2],
        ]
        for variant in variants {
            #expect(authenticator.verify(bearerToken: variant, now: now) == .refused(.malformed), "\(variant)")
        }
        #expect(authenticator.verify(bearerToken: token, now: now) == .accepted(AuthenticatedUser(id: "user-42")))
    }

    @Test(arguments: ["", "bt1", "bt1..", "bt2.e30.AAAA", "bt1.e30.AAAA.extra", "Bearer x", "bt1.%%%.AAAA"])
    func malformedTokensAreMalformed(token: String) {
        #expect(authenticator.verify(bearerToken: token, now: now) == .refused(.malformed))
    }
}
