import BatonCore
import BatonHTTP
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// The indexed projection must equal calling `resolveCatalogCard` on every item, for every user and instant.
///
/// Cross product of the conformance vectors (`Conformance/catalog-decision.v1.json`): every vector's item goes into
/// one publication, and every vector's evidence, instant and policy is applied to all of them.
@Suite("Catalog projection index")
struct CatalogProjectionIndexTests {
    struct Scenario: Sendable {
        let now: Date
        let publication: CatalogPublication
        let evidence: ServiceStateEvidence?
        let policy: CatalogDecisionPolicy
    }

    static func load() throws -> (items: [CatalogItem], scenarios: [Scenario]) {
        let cases = try VectorFile.cases("catalog-decision.v1.json")
        let decoder = RFC3339.jsonDecoder()
        func decode<T: Decodable>(_ type: T.Type, _ value: Any) throws -> T {
            try decoder.decode(
                type, from: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]))
        }
        var items: [CatalogItem] = []
        var scenarios: [Scenario] = []
        for (index, entry) in cases.enumerated() {
            var item = try decode(CatalogItem.self, entry["item"]!)
            item.id = "\(item.id)-\(index)"
            items.append(item)
            var publicationObject = try #require(entry["publication"] as? [String: Any])
            publicationObject["items"] = []
            let publication = try decode(CatalogPublication.self, publicationObject)
            let evidence = entry["evidence"] is NSNull ? nil : try decode(ServiceStateEvidence.self, entry["evidence"]!)
            var policy = CatalogDecisionPolicy()
            if let overrides = entry["policy"] as? [String: Any] {
                if let ttl = overrides["evidenceTTL"] as? Double { policy.evidenceTTL = ttl }
                if let skew = overrides["clockSkewTolerance"] as? Double { policy.clockSkewTolerance = skew }
                if let versions = overrides["supportedSchemaVersions"] as? [Int] {
                    policy.supportedSchemaVersions = Set(versions)
                }
            }
            let now = try #require(RFC3339.date(from: entry["now"] as! String))
            scenarios.append(Scenario(now: now, publication: publication, evidence: evidence, policy: policy))
        }
        return (items, scenarios)
    }

    /// An item whose neutral URL (handed to the OS browser as is) is on a host `chia.journeyHosts` does not pin is
    /// hidden for every user; the others decide as before.
    @Test func anItemWhoseNeutralURLIsOnAnUnpinnedHostIsHidden() throws {
        var (items, scenarios) = try Self.load()
        let hosts = Set(items.compactMap { $0.neutralURL.flatMap(JourneyHostPins.pin(forOrigin:)) })
        let pins = try #require(JourneyHostPins(Array(hosts)))
        // Every other item's neutral URL moves to a host nobody pinned.
        let dropped = "elsewhere.example"
        for position in stride(from: 0, to: items.count, by: 2) where items[position].neutralURL != nil {
            items[position].neutralURL = "https://\(dropped)/c/\(position)"
        }
        var shown = 0
        for scenario in scenarios {
            var publication = scenario.publication
            publication.items = items
            let index = CatalogProjectionIndex(publication: publication, linkHosts: pins)
            let expected = items.filter { $0.neutralURL.flatMap(JourneyHostPins.pin(forOrigin:)) != dropped }
                .compactMap {
                    resolveCatalogCard(
                        item: $0, publication: publication, evidence: scenario.evidence, now: scenario.now,
                        policy: scenario.policy)
                }
            let actual = index.cards(
                publication: publication, evidence: scenario.evidence, now: scenario.now, policy: scenario.policy)
            #expect(actual == expected)
            shown += actual.count
            let unpinned = items.first { $0.neutralURL.flatMap(JourneyHostPins.pin(forOrigin:)) == dropped }
            #expect(
                index.card(
                    itemID: unpinned?.id ?? "", publication: publication, evidence: scenario.evidence,
                    now: scenario.now, policy: scenario.policy) == nil)
        }
        #expect(shown > 0)
    }

    @Test func theIndexDecidesExactlyAsTheDecisionFunctionDoesForEveryItem() async throws {
        let (items, scenarios) = try Self.load()
        #expect(items.count >= 60)
        var compared = 0
        for scenario in scenarios {
            // One scenario at a time on the cooperative pool (docs/reliability.md, "Tests under CPU load").
            await Task.yield()
            var publication = scenario.publication
            publication.items = items
            let index = CatalogProjectionIndex(publication: publication)
            let expected = items.compactMap {
                resolveCatalogCard(
                    item: $0, publication: publication, evidence: scenario.evidence, now: scenario.now,
                    policy: scenario.policy)
            }
            let actual = index.cards(
                publication: publication, evidence: scenario.evidence, now: scenario.now, policy: scenario.policy)
            #expect(actual == expected)
            let body = index.responseBody(
                publication: publication, evidence: scenario.evidence, now: scenario.now, policy: scenario.policy)
            #expect(body == Array(try HTTPResponse.defaultEncoder.encode(CatalogResponseBody(items: expected))))
            for item in items {
                let single = index.card(
                    itemID: item.id, publication: publication, evidence: scenario.evidence, now: scenario.now,
                    policy: scenario.policy)
                let reference = resolveCatalogCard(
                    item: item, publication: publication, evidence: scenario.evidence, now: scenario.now,
                    policy: scenario.policy)
                #expect(single == reference, "\(item.id)")
                compared += 1
            }
        }
        #expect(compared == items.count * scenarios.count)
    }
}
