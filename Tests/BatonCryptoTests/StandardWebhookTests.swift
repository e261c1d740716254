import BatonCore
import Foundation
import Testing

@testable import BatonCrypto

/// The one `whsec_` parser and the one Standard Webhooks signature, against the specification's reference example.
@Suite struct StandardWebhookTests {
    // From the Standard Webhooks test suite: a sender and a receiver written elsewhere agree on these.
    static let referenceSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    let id = "msg_p5jXN8AQM9LWM0D4loKWxJek"
    let timestamp = "1614265330"
    let body = Array(#"{"test": 2432232314}"#.utf8)
    let reference = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="

    static func secret(byteCount: Int) -> String {
        WebhookSecret.prefix + Data((0..<byteCount).map { UInt8($0) }).base64EncodedString()
    }

    @Test func theReferenceSecretSignsTheReferenceSignature() throws {
        let secret = try #require(WebhookSecret(Self.referenceSecret))
        #expect(secret.key.count == 24)
        #expect(StandardWebhookSignature.sign(id: id, timestamp: timestamp, body: body, key: secret.key) == reference)
        #expect(StandardWebhookSignature.matches(reference, id: id, timestamp: timestamp, body: body, key: secret.key))
    }

    @Test func anyOfSeveralSignaturesMayMatchAndOthersAreSkipped() throws {
        let key = try #require(WebhookSecret(Self.referenceSecret)).key
        let header = "v2,xyz v1,!!! v1,AAAA v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= \(reference)"
        #expect(StandardWebhookSignature.matches(header, id: id, timestamp: timestamp, body: body, key: key))
        let others = "v2,xyz v1,!!! v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
        #expect(!StandardWebhookSignature.matches(others, id: id, timestamp: timestamp, body: body, key: key))
    }

    @Test func aChangedIdTimestampOrBodyDoesNotMatch() throws {
        let key = try #require(WebhookSecret(Self.referenceSecret)).key
        #expect(!StandardWebhookSignature.matches(reference, id: id + "x", timestamp: timestamp, body: body, key: key))
        #expect(!StandardWebhookSignature.matches(reference, id: id, timestamp: "1614265331", body: body, key: key))
        #expect(!StandardWebhookSignature.matches(reference, id: id, timestamp: timestamp, body: body + [0], key: key))
    }

    /// One rule everywhere: `whsec_` and standard base64 of at least 24 bytes. The backend demanded 24 bytes while
    /// the sandbox took any non-empty key; both now read secrets with this parser.
    @Test(arguments: [
        "", "whsec_", "whsec_!!!", "sk_abc", "whsec", "WHSEC_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", secret(byteCount: 23), secret(byteCount: 1),
        "whsec_" + String(secret(byteCount: 32).dropFirst(6).dropLast()),
    ])
    func malformedOrShortSecretsAreRefused(_ text: String) {
        #expect(WebhookSecret(text) == nil)
    }

    @Test(arguments: [24, 32, 64])
    func longEnoughSecretsYieldTheirKeyBytes(byteCount: Int) throws {
        let secret = try #require(WebhookSecret(Self.secret(byteCount: byteCount)))
        #expect(secret.key == Secret(bytes: (0..<byteCount).map { UInt8($0) }))
        #expect(secret.value.revealForUse() == Self.secret(byteCount: byteCount))
        #expect("\(secret)" == "WebhookSecret(…)")
    }

    @Test func aGeneratedSecretParsesBackToItsKey() throws {
        let generated = WebhookSecret.generate()
        let parsed = try #require(WebhookSecret(generated.value.revealForUse()))
        #expect(parsed == generated)
        #expect(parsed.key.count == 32)
        #expect(WebhookSecret.generate() != WebhookSecret.generate())
    }
}
