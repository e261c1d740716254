import BatonTestSupport
import Foundation
import Testing

@testable import BatonCore

/// One case of `Conformance/catalog-decision.v1.json`.
struct CatalogDecisionVector: Sendable, CustomTestStringConvertible {
    let id: String
    let now: Date
    let item: CatalogItem
    let publication: CatalogPublication
    let evidence: ServiceStateEvidence?
    let policy: CatalogDecisionPolicy
    let decision: String
    let reason: String?
    let disclosureVersion: String?

    var testDescription: String { id }

    static func all() throws -> [CatalogDecisionVector] {
        let decoder = RFC3339.jsonDecoder()
        return try VectorFile.cases("catalog-decision.v1.json").map { entry in
            var publication = try decoder.decode(
                CatalogPublication.self,
                from: VectorFile.json((entry["publication"] as! [String: Any]).merging(["items": []]) { a, _ in a }))
            let item = try decoder.decode(CatalogItem.self, from: VectorFile.json(entry["item"]!))
            publication.items = [item]
            let evidence: ServiceStateEvidence? =
                entry["evidence"] is NSNull
                ? nil : try decoder.decode(ServiceStateEvidence.self, from: VectorFile.json(entry["evidence"]!))
            var policy = CatalogDecisionPolicy()
            if let overrides = entry["policy"] as? [String: Any] {
                if let ttl = overrides["evidenceTTL"] as? Double { policy.evidenceTTL = ttl }
                if let skew = overrides["clockSkewTolerance"] as? Double { policy.clockSkewTolerance = skew }
                if let versions = overrides["supportedSchemaVersions"] as? [Int] {
                    policy.supportedSchemaVersions = Set(versions)
                }
            }
            let expect = entry["expect"] as! [String: Any]
            return CatalogDecisionVector(
                id: entry["id"] as! String, now: Date(vector: entry["now"] as! String), item: item,
                publication: publication, evidence: evidence, policy: policy, decision: expect["decision"] as! String,
                reason: expect["reason"] as? String, disclosureVersion: expect["disclosureVersion"] as? String)
        }
    }
}

@Suite struct CatalogDecisionTests {
    @Test(arguments: try CatalogDecisionVector.all())
    func vector(_ vector: CatalogDecisionVector) throws {
        let decision = resolveCatalogHandoff(
            item: vector.item, publication: vector.publication, evidence: vector.evidence, now: vector.now,
            policy: vector.policy)
        let card = CatalogCard(item: vector.item, decision: decision)
        switch decision {
        case .hidden(let reason):
            #expect(vector.decision == "hidden")
            #expect(reason.rawValue == vector.reason)
            #expect(card == nil)
        case .neutralOnly(let reason):
            #expect(vector.decision == "neutral_only")
            #expect(reason.rawValue == vector.reason)
            let handoff = try #require(card?.handoff)
            guard case .neutralOnly(let neutral) = handoff else {
                Issue.record("projected \(handoff.mode)")
                return
            }
            #expect(neutral.url.string == vector.item.neutralURL)
        case .shareOrNeutral:
            #expect(vector.decision == "share_or_neutral")
            let handoff = try #require(card?.handoff)
            guard case .shareOrNeutral(let share) = handoff else {
                Issue.record("projected \(handoff.mode)")
                return
            }
            #expect(share.disclosureVersion == vector.disclosureVersion)
            #expect(share.neutralURL.string == vector.item.neutralURL)
        }
    }

    @Test func everyReasonIsCoveredByAVector() throws {
        let reasons = Set(try CatalogDecisionVector.all().compactMap(\.reason))
        let all = Set(
            CatalogHandoffDecision.HiddenReason.allCases.map(\.rawValue)
                + CatalogHandoffDecision.NeutralOnlyReason.allCases.map(\.rawValue))
        #expect(all.subtracting(reasons).isEmpty)
    }

    @Test func projectedCardRoundTripsThroughItsStrictDecoder() throws {
        let vector = try #require(try CatalogDecisionVector.all().first { $0.decision == "share_or_neutral" })
        let card = try #require(
            resolveCatalogCard(
                item: vector.item, publication: vector.publication, evidence: vector.evidence, now: vector.now))
        let decoded = try JSONDecoder().decode(CatalogCard.self, from: JSONEncoder().encode(card))
        #expect(decoded == card)
        #expect(decoded.image.url.string == vector.item.mirroredImageURL)
        #expect(decoded.blockOrder.map(\.rawValue) == vector.item.blockOrder)
    }
}
