import BatonCore
import Foundation
import Testing

@testable import BatonServer

/// Rotations without a gap: a previous webhook secret accepted for a window, token `iat` checked against the clock
/// skew allowance and the maximum lifetime, and a retired signing key that stops verifying at its end date.
@Suite("Rotations")
struct RotationTests {
    static let key = Secret(String(repeating: "k", count: 32))
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    // MARK: - Webhook secrets

    static let current = Secret(bytes: Array(repeating: 1, count: 32))
    static let previous = Secret(bytes: Array(repeating: 2, count: 32))

    @Test func aPreviousWebhookSecretIsAcceptedUntilItsWindowEnds() throws {
        let verifier = StandardWebhookVerifier(
            key: Self.current, previousKey: Self.previous, previousUntil: Self.now.addingTimeInterval(3_600))
        let old = StandardWebhookVerifier(key: Self.previous)
        let body = Array(#"{"type":"x"}"#.utf8)
        func deliver(at now: Date, signedBy signer: StandardWebhookVerifier) throws -> String {
            let timestamp = String(Int(now.timeIntervalSince1970))
            let signature = signer.signature(id: "msg_1", timestamp: timestamp, body: body)
            return try verifier.verify(id: "msg_1", timestamp: timestamp, signatures: signature, body: body, now: now)
        }
        #expect(try deliver(at: Self.now, signedBy: StandardWebhookVerifier(key: Self.current)) == "msg_1")
        #expect(try deliver(at: Self.now, signedBy: old) == "msg_1")
        #expect(try deliver(at: Self.now.addingTimeInterval(3_599), signedBy: old) == "msg_1")
        #expect(throws: WebhookRejection.signatureMismatch) {
            try deliver(at: Self.now.addingTimeInterval(3_600), signedBy: old)
        }
        let other = StandardWebhookVerifier(key: Secret(bytes: Array(repeating: 3, count: 32)))
        #expect(throws: WebhookRejection.signatureMismatch) { try deliver(at: Self.now, signedBy: other) }
    }

    static let file = """
        {"server": {"publicOrigin": "https://p.example"}, "tokens": {"ttlSeconds": 3600},
         "chia": {"apiOrigin": "https://c.example", "assetOrigin": "https://c.example"},
         "privue": {"apiOrigin": "https://v.example", "returnURL": "https://app.example/kyc", "workflows": ["w"]},
         "bb": {"apiOrigin": "https://b.example", "returnURLs": {"https": "https://app.example/cb"}UNTIL}}
        """

    static func load(until: String? = nil, environment extra: [String: String] = [:]) throws -> BackendConfiguration {
        let file = Self.file.replacingOccurrences(
            of: "UNTIL", with: until.map { #", "previousWebhookSecretUntil": "\#($0)""# } ?? "")
        return try BackendConfiguration.load(
            json: Data(file.utf8), environment: TestConfiguration.environment.merging(extra) { $1 })
    }

    @Test func thePreviousWebhookSecretNeedsItsWindowAndTheWindowItsSecret() throws {
        let secret = "whsec_" + Data(repeating: 9, count: 32).base64EncodedString()
        let loaded = try Self.load(
            until: "2026-12-31T00:00:00Z", environment: ["BATON_BB_WEBHOOK_SECRET_PREVIOUS": secret])
        #expect(loaded.bb.previousWebhookSecret == Secret(bytes: Array(repeating: 9, count: 32)))
        #expect(loaded.bb.previousWebhookSecretUntil == RFC3339.date(from: "2026-12-31T00:00:00Z"))
        #expect(try Self.load().bb.previousWebhookSecret == nil)
        #expect(throws: ConfigurationErrors.self) {
            try Self.load(environment: ["BATON_BB_WEBHOOK_SECRET_PREVIOUS": secret])
        }
        #expect(throws: ConfigurationErrors.self) { try Self.load(until: "2026-12-31T00:00:00Z") }
        #expect(throws: ConfigurationErrors.self) {
            try Self.load(until: "next week", environment: ["BATON_BB_WEBHOOK_SECRET_PREVIOUS": secret])
        }
    }

    // MARK: - Tokens

    static let authenticator = SignedTokenAuthenticator(
        key: key, retiredKeys: [], audience: "aud", clockSkew: 60, maxLifetime: 86_400)

    @Test func aTokenIssuedInTheFutureBeyondTheSkewIsRefused() {
        let within = Self.authenticator.token(
            for: "u", expiresAt: Self.now.addingTimeInterval(3_600), issuedAt: Self.now.addingTimeInterval(60))
        #expect(Self.authenticator.verify(bearerToken: within, now: Self.now) == .accepted(AuthenticatedUser(id: "u")))
        let ahead = Self.authenticator.token(
            for: "u", expiresAt: Self.now.addingTimeInterval(3_600), issuedAt: Self.now.addingTimeInterval(61))
        #expect(Self.authenticator.verify(bearerToken: ahead, now: Self.now) == .refused(.issuedInFuture))
    }

    @Test func aTokenOlderThanTheMaximumLifetimeIsRefusedWhateverItsExpiry() {
        let old = Self.authenticator.token(
            for: "u", expiresAt: Self.now.addingTimeInterval(86_400 * 365),
            issuedAt: Self.now.addingTimeInterval(-86_401))
        #expect(Self.authenticator.verify(bearerToken: old, now: Self.now) == .refused(.tooOld))
        let day = Self.authenticator.token(
            for: "u", expiresAt: Self.now.addingTimeInterval(60), issuedAt: Self.now.addingTimeInterval(-86_400))
        #expect(Self.authenticator.verify(bearerToken: day, now: Self.now) == .accepted(AuthenticatedUser(id: "u")))
    }

    @Test func aRetiredKeyStopsVerifyingAtItsEndDate() {
        let newKey = Secret(String(repeating: "n", count: 32))
        let end = Self.now.addingTimeInterval(600)
        let rotated = SignedTokenAuthenticator(
            key: newKey, retiredKeys: [RetiredTokenKey(key: Self.key, notAfter: end)], audience: "aud")
        let old = Self.authenticator.token(for: "u", expiresAt: Self.now.addingTimeInterval(3_600), issuedAt: Self.now)
        #expect(rotated.verify(bearerToken: old, now: Self.now) == .accepted(AuthenticatedUser(id: "u")))
        #expect(
            rotated.verify(bearerToken: old, now: end.addingTimeInterval(-1)) == .accepted(AuthenticatedUser(id: "u")))
        #expect(rotated.verify(bearerToken: old, now: end) == .refused(.retiredKey))
        let fresh = rotated.token(for: "u", expiresAt: end.addingTimeInterval(3_600), issuedAt: end)
        #expect(rotated.verify(bearerToken: fresh, now: end) == .accepted(AuthenticatedUser(id: "u")))
    }

    @Test func theConfigurationReadsEndDatesSkewAndLifetime() throws {
        let loaded = try Self.load(environment: [
            "BATON_TOKEN_PREVIOUS_SIGNING_KEYS": String(repeating: "o", count: 32) + "@2026-12-31T00:00:00Z,"
                + String(repeating: "p", count: 32)
        ])
        #expect(loaded.previousTokenSigningKeys.map(\.notAfter) == [RFC3339.date(from: "2026-12-31T00:00:00Z"), nil])
        #expect(loaded.previousTokenSigningKeys.first?.key == Secret(String(repeating: "o", count: 32)))
        #expect(loaded.tokenClockSkew == 60)
        #expect(loaded.tokenMaxLifetime == 86_400)
        let shortLived = Self.file.replacingOccurrences(
            of: #""ttlSeconds": 3600"#, with: #""ttlSeconds": 3600, "maxLifetimeSeconds": 600"#
        ).replacingOccurrences(of: "UNTIL", with: "")
        #expect(throws: ConfigurationErrors.self) {
            try BackendConfiguration.load(json: Data(shortLived.utf8), environment: TestConfiguration.environment)
        }
    }
}
