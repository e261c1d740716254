import BatonCore
import Foundation

@testable import BatonClient

/// Shared test values: cards as the backend sends them, URLs, keys and times.
enum Fixtures {
    static let itemID = "item-1"
    static let neutralURL = "https://chia.example/c/item-1"
    static let journeyURL = "https://chia.example/h/phs_7Gq2xv"
    static let keyA = IdempotencyKey("3f2504e0-4f89-41d3-9a0c-0305e82c3301")!
    static let keyB = IdempotencyKey("9b2c6f1e-8d4a-4c3b-a1e2-5f6d7c8b9a01")!
    static let t0 = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    static func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    static func cardJSON(mode: String, id: String = itemID, disclosureVersion: String = "dv-3") -> [String: Any] {
        let handoff: [String: Any]
        if mode == "neutral_only" {
            handoff = [
                "mode": "neutral_only", "heading": "Continue at Chia", "body": "Chia runs this service.",
                "actionLabel": "Continue to Chia", "url": neutralURL,
            ]
        } else {
            handoff = [
                "mode": "share_or_neutral", "heading": "Share your selection?", "body": "Chia can skip a step.",
                "recipient": ["legal_name": "Chia Health Inc.", "privacy_contact": "privacy@chia.example"],
                "dataShared": ["Selected item"], "purpose": "Prefill your intake",
                "compensationDisclosure": "We are paid a referral fee.",
                "policyUrls": ["privacy": "https://chia.example/privacy"],
                "primary": [
                    "actionLabel": "Share selection and continue", "sessionCreationPath": "/v2/handoff-sessions",
                    "disclosureVersion": disclosureVersion,
                ],
                "secondary": ["actionLabel": "Continue without sharing", "url": neutralURL],
            ]
        }
        return [
            "id": id, "presentation_contract": ["block_order": ["image", "title", "summary", "price"]],
            "title": "Weight care", "summary": "A clinician-led program.", "priceText": "$99 / month",
            "image": ["url": "https://partner.example/assets/ab12.png", "alt": "A clinician"], "handoff": handoff,
        ]
    }

    static func card(mode: String, id: String = itemID, disclosureVersion: String = "dv-3") -> CatalogCard {
        decodeCard(cardJSON(mode: mode, id: id, disclosureVersion: disclosureVersion))
    }

    static func decodeCard(_ object: Any) -> CatalogCard {
        let data = try! JSONSerialization.data(withJSONObject: object)
        return try! JSONDecoder().decode(CatalogCard.self, from: data)
    }

    static var shareCard: CatalogCard { card(mode: "share_or_neutral") }
    static var neutralCard: CatalogCard { card(mode: "neutral_only") }
    static var genericReturn: GenericReturnParser { try! GenericReturnParser(registeredHost: "partner.example") }
    static var verificationParser: VerificationReturnParser {
        try! VerificationReturnParser(registered: ["https://partner.example/kyc/done"])
    }
    static var connectParser: ConnectReturnParser {
        try! ConnectReturnParser(registered: ["https://app.example.com/bb-callback", "acmewallet://bb-callback"])
    }
    static let httpsCallback = ConnectCallback.https(host: "app.example.com", path: "/bb-callback")
}

/// A flow machine's action, one of which records telemetry.
protocol MachineAction {
    /// Whether this action only records telemetry.
    var isTelemetry: Bool { get }
}

extension ChiaHandoffMachine.Action: MachineAction {
    var isTelemetry: Bool {
        if case .record = self { return true }
        return false
    }
}

extension VerificationMachine.Action: MachineAction {
    var isTelemetry: Bool {
        if case .record = self { return true }
        return false
    }
}

extension ConnectMachine.Action: MachineAction {
    var isTelemetry: Bool {
        if case .record = self { return true }
        return false
    }
}

extension Array where Element: MachineAction {
    /// The actions without telemetry, for transcripts about behaviour.
    var effects: [Element] { filter { !$0.isTelemetry } }
}
