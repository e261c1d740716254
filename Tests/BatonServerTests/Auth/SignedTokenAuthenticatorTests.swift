import BatonCore
import BatonCrypto
import Foundation
import Testing

@testable import BatonServer

@Suite struct SignedTokenAuthenticatorTests {
    let authenticator = SignedTokenAuthenticator(key: Secret(String(repeating: "k", count: 32)))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aFreshTokenNamesItsUser() {
        let token = authenticator.token(for: "user-42", expiresAt: now.addingTimeInterval(60))
        #expect(authenticator.authenticate(bearerToken: token, now: now) == AuthenticatedUser(id: "user-42"))
    }

    @Test func anExpiredTokenProvesNothing() {
        let token = authenticator.token(for: "user-42", expiresAt: now)
        #expect(authenticator.authenticate(bearerToken: token, now: now) == nil)
    }

    @Test func aTokenFromAnotherKeyProvesNothing() {
        let other = SignedTokenAuthenticator(key: Secret(String(repeating: "x", count: 32)))
        let token = other.token(for: "user-42", expiresAt: now.addingTimeInterval(60))
        #expect(authenticator.authenticate(bearerToken: token, now: now) == nil)
    }

    @Test func aTamperedPayloadProvesNothing() {
        let token = authenticator.token(for: "user-42", expiresAt: now.addingTimeInterval(60))
        let parts = token.split(separator: ".")
        let forgedPayload = Base64URL.encode(Array(#"{"exp":1900000000,"sub":"admin"}"#.utf8))
        #expect(authenticator.authenticate(bearerToken: "\(parts[0]).\(forgedPayload).\(parts[2])", now: now) == nil)
    }

    /// A token whose MAC is right for `payload`, whatever the payload says.
    private func signed(_ payload: String) -> String {
        let body = "bt1." + Base64URL.encode(Array(payload.utf8))
        let key = Secret(String(repeating: "k", count: 32))
        return body + "." + Base64URL.encode(HMACSHA256.authenticationCode(for: Array(body.utf8), key: key))
    }

    @Test(arguments: [
        (#"{"exp":1900000000,"sub":"user-42"}"#, "user-42"), (#"{"sub":"user-42","exp":1900000000}"#, "user-42"),
        (#" { "sub" : "\u0075ser-42" , "exp" : 1900000000 } "#, "user-42"),
    ])
    func signedPayloadsInAnySpellingNameTheirUser(payload: String, user: String) {
        #expect(authenticator.authenticate(bearerToken: signed(payload), now: now) == AuthenticatedUser(id: user))
    }

    @Test(arguments: [
        #"{"exp":1900000000,"sub":""}"#, #"{"exp":1900000000}"#, #"{"sub":"u"}"#,
        #"{"exp":1900000000,"sub":"u","admin":true}"#, #"{"exp":"1900000000","sub":"u"}"#,
        #"{"exp":1900000000.5,"sub":"u"}"#, #"{"exp":1.9e9,"sub":"u"}"#, #"{"exp":1900000000,"sub":7}"#,
        #"{"exp":1900000000,"sub":"u","sub":"admin"}"#, #"{"exp":1799999999,"sub":"u"}"#, "[]", "",
    ])
    func signedButMalformedOrExpiredPayloadsProveNothing(payload: String) {
        #expect(authenticator.authenticate(bearerToken: signed(payload), now: now) == nil)
    }

    @Test(arguments: ["", "bt1", "bt1..", "bt2.e30.AAAA", "bt1.e30.AAAA.extra", "Bearer x", "bt1.%%%.AAAA"])
    func malformedTokensProveNothing(token: String) {
        #expect(authenticator.authenticate(bearerToken: token, now: now) == nil)
    }
}
