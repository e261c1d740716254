import BatonCore
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

    @Test(arguments: ["", "bt1", "bt1..", "bt2.e30.AAAA", "bt1.e30.AAAA.extra", "Bearer x", "bt1.%%%.AAAA"])
    func malformedTokensProveNothing(token: String) {
        #expect(authenticator.authenticate(bearerToken: token, now: now) == nil)
    }
}
