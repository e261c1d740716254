import BatonCore
import BatonHTTP
import BatonTestSupport
import Foundation
import Synchronization

@testable import BatonServer

/// Chia's `POST /v2/handoff-sessions` as the seed describes it: one `phs_…` session per `Idempotency-Key`, the same
/// key and body replayed, the same key with another body 422. Counts the sessions it created.
final class FakeChia: Sendable {
    private struct Session {
        let body: [UInt8]
        let url: String
        let expiresAt: Date
    }

    private let sessions = Mutex<[String: Session]>([:])
    private let clock: ManualClock

    init(clock: ManualClock) { self.clock = clock }

    /// Sessions created (distinct keys).
    var sessionCount: Int { sessions.withLock { $0.count } }

    func handle(_ request: OutboundRequest) -> OutboundResponse {
        guard let key = request.headers["idempotency-key"] else {
            return ScriptedTransport.json(400, ["error": "idempotency_key_missing"])
        }
        let now = clock.now
        let outcome = sessions.withLock { sessions -> Session? in
            if let existing = sessions[key] { return existing.body == request.body ? existing : nil }
            let session = Session(
                body: request.body, url: "https://chia.example/h/phs_" + UUID().uuidString.lowercased(),
                expiresAt: now.addingTimeInterval(15 * 60))
            sessions[key] = session
            return session
        }
        guard let outcome else { return ScriptedTransport.json(422, ["error": "idempotency_key_reused"]) }
        return ScriptedTransport.json(201, ["url": outcome.url, "expiresAt": RFC3339.string(from: outcome.expiresAt)])
    }
}

/// A catalog projection the test sets item by item.
final class TestCatalogProjection: CatalogProjection {
    private let offers = Mutex<[String: MobileHandoff]>([:])

    static func share(version: String) -> MobileHandoff {
        .shareOrNeutral(
            MobileHandoff.ShareOrNeutral(
                heading: "Share your selection?", body: "Chia receives your selection.",
                recipient: HandoffRecipient(legalName: "Chia Health Inc.", privacyContact: "privacy@chia.example"),
                dataShared: ["selected item"], purpose: "to start your visit", compensationDisclosure: "none",
                policyURLs: ["privacy": HTTPSURL("https://chia.example/privacy")!], disclosureVersion: version,
                neutralURL: HTTPSURL("https://chia.example/c/item")!))
    }

    static let neutral = MobileHandoff.neutralOnly(
        MobileHandoff.NeutralOnly(heading: "Chia", body: "Continue", url: HTTPSURL("https://chia.example/c/item")!))

    func set(_ itemID: String, _ handoff: MobileHandoff?) { offers.withLock { $0[itemID] = handoff } }

    func cards(for user: AuthenticatedUser, now: Date) async throws -> [CatalogCard] { [] }

    func handoff(for user: AuthenticatedUser, catalogItemID: String, now: Date) async throws -> MobileHandoff? {
        offers.withLock { $0[catalogItemID] }
    }
}

/// Mounts only the test projection.
struct TestCatalogComponent: CatalogComponent {
    let projection: any CatalogProjection
    func registerRoutes(on api: inout RouterGroup) {}
    func registerPublicRoutes(on router: inout Router) {}
    func run() async {}
}
