import BatonCore
import BatonHTTP
import BatonSandbox
import Foundation

extension BackendVerifier {
    /// `GET /v2/catalog`: `{"items":[card…]}`, every card a closed projection of a published Chia item.
    func checkCatalog(_ probe: SandboxProbe) async throws -> ShareTarget? {
        // The sandbox's fixture catalog: an item not published, or whose image Chia cannot serve, must be hidden.
        let fixtures = ChiaFixtures.items(neutralOrigin: try probe.origin(.chia))
        let published = Set(
            fixtures.filter {
                $0.status == CatalogItem.publishedStatus && $0.imageAssetID != ChiaFixtures.missingImageAssetID
            }.map(\.id))
        let chiaOrigin = try probe.origin(.chia)
        var reply = try await send(.get, "/v2/catalog", headers: try await auth("chia"))
        // A backend that has just started may not have synced yet: it says so with 503 and Retry-After, and the
        // app waits what it says (each wait capped, as an app caps it, and 10 s in all).
        let deadline = ContinuousClock.now + .seconds(10)
        while reply.status == 503, ContinuousClock.now < deadline {
            try reply.expectProblem(503, "catalog_unavailable", "the catalog before its first sync")
            guard let retryAfter = reply.retryAfter else {
                throw CheckFailure("GET /v2/catalog: 503 catalog_unavailable without Retry-After")
            }
            try await Task.sleep(for: min(retryAfter.delay(from: Date()), .seconds(2)))
            reply = try await send(.get, "/v2/catalog", headers: try await auth("chia"))
        }
        try expect(reply.status == 200, "GET /v2/catalog: expected 200, got \(reply.summary)")
        guard let json = reply.json, json.keys == ["items"], let cards = json["items"]?.arrayValue else {
            throw CheckFailure("GET /v2/catalog is not exactly {\"items\":[…]}")
        }
        var target: (String, String)?
        var neutral: String?
        for card in cards {
            let id = card["id"]?.stringValue ?? "?"
            let forbidden = card.keys.intersection(Self.forbiddenCardMembers)
            try expect(forbidden.isEmpty, "card \(id) carries \(forbidden.sorted().joined(separator: ", "))")
            try expect(
                card.keys.isSuperset(of: Self.cardMembers),
                "card \(id) lacks \(Self.cardMembers.subtracting(card.keys))")
            try expect(
                published.contains(id),
                "card \(id) is not a published Chia item with an image (hidden items must be absent)")
            let image = card["image"]?["url"]?.stringValue ?? ""
            try expect(
                !image.hasPrefix(chiaOrigin), "card \(id)'s image is Chia's authenticated asset URL, not a mirror")
            guard let handoff = card["handoff"] else { throw CheckFailure("card \(id) has no handoff") }
            switch handoff["mode"]?.stringValue {
            case "neutral_only":
                try expect(
                    handoff.keys == ["mode", "heading", "body", "actionLabel", "url"],
                    "card \(id): a neutral_only handoff must be exactly mode, heading, body, actionLabel, url")
                try expect(handoff["actionLabel"]?.stringValue == "Continue to Chia", "card \(id): changed actionLabel")
                neutral = neutral ?? id
            case "share_or_neutral":
                try expect(
                    handoff.keys == [
                        "mode", "heading", "body", "recipient", "dataShared", "purpose", "compensationDisclosure",
                        "policyUrls", "primary", "secondary",
                    ], "card \(id): the share_or_neutral handoff has other members than seed 000's")
                let primary = handoff["primary"]
                try expect(
                    primary?.keys == ["actionLabel", "sessionCreationPath", "disclosureVersion"]
                        && primary?["actionLabel"]?.stringValue == "Share selection and continue"
                        && primary?["sessionCreationPath"]?.stringValue == "/v2/handoff-sessions",
                    "card \(id): primary is not seed 000's literal action")
                try expect(
                    handoff["secondary"]?.keys == ["actionLabel", "url"]
                        && handoff["secondary"]?["actionLabel"]?.stringValue == "Continue without sharing",
                    "card \(id): secondary is not seed 000's literal action")
                try expect(
                    handoff["recipient"]?.keys == ["legal_name", "privacy_contact"],
                    "card \(id): recipient is not {legal_name, privacy_contact}")
                if target == nil, let version = primary?["disclosureVersion"]?.stringValue { target = (id, version) }
            default:
                throw CheckFailure("card \(id): handoff mode is not neutral_only or share_or_neutral")
            }
        }
        return target.map { ShareTarget(item: $0.0, version: $0.1, neutralItem: neutral) }
    }
}
