import BatonCore
import Foundation

/// Feeds one libFuzzer input to every BatonCore entry point that takes untrusted text: the three return-link
/// parsers (with https and custom-scheme registrations), the splitter, the query parser, the idempotency-key
/// validator and the strict `MobileHandoff` / `CatalogCard` decoders. Any trap is a finding.
enum FuzzTarget {
    static let connect = try! ConnectReturnParser(registered: [
        "https://app.example.com/bb-callback", "acmewallet://bb-callback", "https://[::1]:8443/bb-callback?src=app",
    ])
    static let verification = try! VerificationReturnParser(registered: ["https://partner.example/kyc/done"])
    static let generic = try! GenericReturnParser(registeredHost: "partner.example")

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = connect.parse(text)
        _ = verification.parse(text)
        _ = generic.parse(text)
        _ = RawURLComponents(text)
        _ = FormURLEncodedQuery(parsing: text).firstNonEmpty("sessionId")
        _ = IdempotencyKey(text)
        let data = Data(buffer: bytes)
        let decoder = JSONDecoder()
        if let handoff = try? decoder.decode(MobileHandoff.self, from: data) {
            roundTrip(handoff)
        }
        if let card = try? decoder.decode(CatalogCard.self, from: data) {
            roundTrip(card)
        }
    }

    /// A value that decoded must encode and decode back to itself.
    private static func roundTrip<Value: Codable & Equatable>(_ value: Value) {
        guard let encoded = try? JSONEncoder().encode(value),
            let decoded = try? JSONDecoder().decode(Value.self, from: encoded), decoded == value
        else { fatalError("decoded value does not round-trip") }
    }
}
