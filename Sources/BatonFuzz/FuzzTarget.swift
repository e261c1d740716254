import BatonCore
import BatonServerFuzzing
import Dispatch
import Foundation

/// Feeds one libFuzzer input to every BatonCore entry point that takes untrusted text: the three return-link
/// parsers (with https and custom-scheme registrations), the splitter, the query parser, the idempotency-key
/// validator and the strict `MobileHandoff` / `CatalogCard` decoders. Any trap is a finding.
enum FuzzTarget {
    static let connect = fixed {
        try ConnectReturnParser(registered: [
            "https://app.example.com/bb-callback", "acmewallet://bb-callback",
            "https://[::1]:8443/bb-callback?src=app",
        ])
    }
    static let verification = fixed { try VerificationReturnParser(registered: ["https://partner.example/kyc/done"]) }
    static let generic = fixed { try GenericReturnParser(registeredHost: "partner.example") }

    /// A parser over the fixed registrations above; a refusal is a defect of this file, stopped with its reason.
    private static func fixed<Parser>(_ make: () throws -> Parser) -> Parser {
        do {
            return try make()
        } catch {
            preconditionFailure("FuzzTarget's fixed registration was refused: \(error)")
        }
    }

    /// Which entry points to exercise, from `BATON_FUZZ_ENTRY` (`connect`, `verification`, `generic`,
    /// `projection`, or one of the server's readers: `body`, `token`, `webhook`, `provider`, `config`, `target`;
    /// unset or `all` for the four app-side ones), so each reader can be given its own fuzzing time.
    enum Entry: String, CaseIterable {
        case all, connect, verification, generic, projection
        case body, token, webhook, provider, config, target
    }

    static let entry = ProcessInfo.processInfo.environment["BATON_FUZZ_ENTRY"].flatMap(Entry.init) ?? .all

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let server = UntrustedInputFuzzing.Entry(rawValue: entry.rawValue) {
            runServer(server, Array(bytes))
            return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if entry == .all || entry == .connect {
            _ = connect.parse(text)
            _ = FormURLEncodedQuery(parsing: text).firstNonEmpty("sessionId")
        }
        if entry == .all || entry == .verification { _ = verification.parse(text) }
        if entry == .all || entry == .generic { _ = generic.parse(text) }
        if entry == .all {
            _ = RawURLComponents(text)
            _ = IdempotencyKey(text)
        }
        guard entry == .all || entry == .projection else { return }
        let data = Data(buffer: bytes)
        let decoder = JSONDecoder()
        if let handoff = try? decoder.decode(MobileHandoff.self, from: data) {
            roundTrip(handoff)
        }
        if let card = try? decoder.decode(CatalogCard.self, from: data) {
            roundTrip(card)
        }
    }

    /// One server reader, awaited to the end before libFuzzer gets the next input.
    private static func runServer(_ server: UntrustedInputFuzzing.Entry, _ bytes: [UInt8]) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await UntrustedInputFuzzing.run(server, bytes)
            done.signal()
        }
        done.wait()
    }

    /// A value that decoded must encode and decode back to itself.
    private static func roundTrip<Value: Codable & Equatable>(_ value: Value) {
        guard let encoded = try? JSONEncoder().encode(value),
            let decoded = try? JSONDecoder().decode(Value.self, from: encoded), decoded == value
        else { fatalError("decoded value does not round-trip") }
    }
}
