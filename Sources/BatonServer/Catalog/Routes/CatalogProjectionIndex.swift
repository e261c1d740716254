import BatonCore
import BatonHTTP
import Foundation

/// The user-independent half of the projection, computed once per loaded publication so a request decides only
/// what depends on the user.
///
/// ``resolveCatalogHandoff(item:publication:evidence:now:policy:urls:)`` reads of an item only whether it is published
/// and renderable (rule 1), its regions (rule 3), and whether it allows sharing with a renderable disclosure
/// (rule 4). Items that agree on those decide alike for every user, so a request calls the decision once per
/// such class (on a representative item) instead of once per item, then hands each item its precomputed card —
/// and, for `GET /v2/catalog`, that card's precomputed JSON. Items hidden by rule 1 are dropped here: no user ever
/// sees them.
struct CatalogProjectionIndex: Sendable {
    /// The decision class of an item.
    struct DecisionKey: Hashable, Sendable {
        var regions: [String]
        var sharingAllowed: Bool
        var disclosureRenderable: Bool
    }

    /// Whether loopback `http` URLs count as secure for this publication (``URLPolicy/development`` against the
    /// sandbox only), passed to every decision and card.
    let urls: URLPolicy
    /// One representative item per decision class.
    private(set) var representatives: [CatalogItem] = []
    /// The user- and time-independent part of each representative's decision, worked out once here so a request
    /// does not parse the item's URLs again (`resolveCatalogHandoff(_:publication:evidence:now:policy:)`).
    private var standings: [CatalogItemStanding] = []
    /// Per visible item, in catalog order: its class, its two possible cards and their JSON.
    private var classOfEntry: [Int] = []
    private var neutralCards: [CatalogCard] = []
    private var shareCards: [CatalogCard?] = []
    private var neutralJSON: [[UInt8]] = []
    private var shareJSON: [[UInt8]?] = []
    private var entryByItemID: [String: Int] = [:]

    /// With `linkHosts`, an item whose neutral URL (opened by the OS browser as is) is on another host is hidden.
    init(publication: CatalogPublication, allowsLoopbackHTTP: Bool = false, linkHosts: JourneyHostPins? = nil) {
        self.urls = URLPolicy(allowsLoopbackHTTP: allowsLoopbackHTTP)
        build(publication, linkHosts: linkHosts)
    }

    private mutating func build(_ publication: CatalogPublication, linkHosts: JourneyHostPins?) {
        var classes: [DecisionKey: Int] = [:]
        let encoder = HTTPResponse.defaultEncoder
        for item in publication.items where item.status == CatalogItem.publishedStatus {
            if let linkHosts, let link = item.neutralURL, !linkHosts.admits(link) { continue }
            // A neutral card exists exactly when rule 1 passes (the card checks the same renderability).
            guard let neutralCard = CatalogCard(item: item, decision: .neutralOnly(.evidenceMissing), urls: urls),
                let neutral = try? encoder.encode(neutralCard)
            else { continue }
            let shareCard = item.disclosure.flatMap {
                CatalogCard(item: item, decision: .shareOrNeutral($0), urls: urls)
            }
            let share = shareCard.flatMap { try? encoder.encode($0) }
            let key = DecisionKey(
                regions: Set(item.regions.map(Self.asciiLowercased)).sorted(),
                sharingAllowed: item.sharingAllowed, disclosureRenderable: share != nil)
            let classIndex: Int
            if let existing = classes[key] {
                classIndex = existing
            } else {
                classIndex = representatives.count
                classes[key] = classIndex
                representatives.append(item)
                standings.append(CatalogItemStanding(item: item, urls: urls))
            }
            if entryByItemID[item.id] == nil { entryByItemID[item.id] = classOfEntry.count }
            classOfEntry.append(classIndex)
            neutralCards.append(neutralCard)
            shareCards.append(share == nil ? nil : shareCard)
            neutralJSON.append(Array(neutral))
            shareJSON.append(share.map(Array.init))
        }
    }

    /// Lowercases ASCII letters only, as the decision compares regions.
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The decision mode of each class for the user `evidence` describes, at `now`.
    private func modes(
        publication: CatalogPublication, evidence: ServiceStateEvidence?, now: Date, policy: CatalogDecisionPolicy
    ) -> [MobileHandoff.Mode?] {
        standings.map { standing in
            resolveCatalogHandoff(standing, publication: publication, evidence: evidence, now: now, policy: policy).mode
        }
    }

    /// The cards for the user `evidence` describes, at `now`, in catalog order.
    func cards(
        publication: CatalogPublication, evidence: ServiceStateEvidence?, now: Date, policy: CatalogDecisionPolicy
    ) -> [CatalogCard] {
        let modes = modes(publication: publication, evidence: evidence, now: now, policy: policy)
        var cards: [CatalogCard] = []
        cards.reserveCapacity(classOfEntry.count)
        for entry in classOfEntry.indices {
            switch modes[classOfEntry[entry]] {
            case nil: continue
            case .neutralOnly: cards.append(neutralCards[entry])
            case .shareOrNeutral: if let card = shareCards[entry] { cards.append(card) }
            }
        }
        return cards
    }

    /// The `GET /v2/catalog` body for the same cards: byte for byte what encoding ``CatalogResponseBody`` with
    /// `HTTPResponse.defaultEncoder` gives, assembled from the precomputed card JSON.
    func responseBody(
        publication: CatalogPublication, evidence: ServiceStateEvidence?, now: Date, policy: CatalogDecisionPolicy
    ) -> [UInt8] {
        let modes = modes(publication: publication, evidence: evidence, now: now, policy: policy)
        var body = Array(#"{"items":["#.utf8)
        var first = true
        for entry in classOfEntry.indices {
            let json: [UInt8]?
            switch modes[classOfEntry[entry]] {
            case nil: json = nil
            case .neutralOnly: json = neutralJSON[entry]
            case .shareOrNeutral: json = shareJSON[entry]
            }
            guard let json else { continue }
            if !first { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: json)
            first = false
        }
        body.append(contentsOf: Array("]}".utf8))
        return body
    }

    /// The card for one item, or `nil` when it is hidden or unknown.
    func card(
        itemID: String, publication: CatalogPublication, evidence: ServiceStateEvidence?, now: Date,
        policy: CatalogDecisionPolicy
    ) -> CatalogCard? {
        guard let entry = entryByItemID[itemID] else { return nil }
        let mode = resolveCatalogHandoff(
            standings[classOfEntry[entry]], publication: publication, evidence: evidence, now: now, policy: policy
        ).mode
        switch mode {
        case nil: return nil
        case .neutralOnly: return neutralCards[entry]
        case .shareOrNeutral: return shareCards[entry]
        }
    }
}
