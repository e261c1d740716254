import BatonCore

/// The items the sandbox's Chia publishes: one for every path of the catalog decision (CONTRACTS §3).
///
/// | id | exercises |
/// |---|---|
/// | `cat_weight_care` | shareable (`share_or_neutral` for an active user in US/GB), PNG image |
/// | `cat_skin_consult` | sharing disabled (`neutral_only`), JPEG image |
/// | `cat_sleep_clinic` | region-limited to DE/FR (`hidden` elsewhere), shareable |
/// | `cat_hair_care` | image asset missing (the asset endpoint answers 404, so mirroring fails: `hidden`) |
/// | `cat_retired` | not published (`status: withdrawn`: `hidden`) |
public enum ChiaFixtures {
    /// The asset id whose bytes Chia does not have (the missing-image fixture).
    public static let missingImageAssetID = "img_hair_care"

    /// The current disclosure version of the shareable fixtures.
    public static let disclosureVersion = "2025-06-01"

    /// The neutral page slug of an item id (`cat_weight_care` → `weight-care`).
    static func slug(of itemID: String) -> String {
        String(itemID.dropFirst("cat_".count)).replacingOccurrences(of: "_", with: "-")
    }

    /// The fixture items, with neutral URLs on `origin` (`<origin>/c/<slug>`).
    public static func items(origin: String) -> [CatalogItem] {
        [
            item(
                "cat_weight_care", title: "Weight care programme", summary: "Clinician-led weight care, online.",
                price: "From $99 / month", image: "img_weight_care", alt: "A green square", regions: ["US", "GB"],
                sharing: true, origin: origin),
            item(
                "cat_skin_consult", title: "Skin consultation", summary: "A dermatology consult by video.",
                price: "$49", image: "img_skin_consult", alt: "A terracotta square", regions: ["US", "GB"],
                sharing: false, origin: origin),
            item(
                "cat_sleep_clinic", title: "Sleep clinic", summary: "Sleep assessments with a specialist.",
                price: "€79", image: "img_sleep_clinic", alt: "A green square", regions: ["DE", "FR"],
                sharing: true, origin: origin),
            item(
                "cat_hair_care", title: "Hair care", summary: "Hair loss treatment plans.", price: "$35 / month",
                image: missingImageAssetID, alt: "Hair care", regions: ["US", "GB"], sharing: true,
                origin: origin),
            item(
                "cat_retired", title: "Retired offer", summary: "No longer offered.", price: "$0",
                image: "img_weight_care", alt: "A green square", regions: ["US", "GB"], sharing: true,
                origin: origin, status: "withdrawn"),
        ]
    }

    /// The image bytes behind each asset id (the missing-image fixture has none).
    static let assets: [String: ChiaImages.Asset] = [
        "img_weight_care": ChiaImages.png,
        "img_skin_consult": ChiaImages.jpeg,
        "img_sleep_clinic": ChiaImages.png,
    ]

    private static func item(
        _ id: String, title: String, summary: String, price: String, image: String, alt: String, regions: [String],
        sharing: Bool, origin: String, status: String = CatalogItem.publishedStatus
    ) -> CatalogItem {
        CatalogItem(
            id: id, status: status, title: title, summary: summary, priceText: price, imageAssetID: image,
            imageAltText: alt, mirroredImageURL: nil, blockOrder: ["image", "title", "summary", "price"],
            regions: regions, sharingAllowed: sharing, neutralHeading: "Continue to Chia",
            neutralBody: "You will continue to Chia without sharing anything from this app.",
            neutralURL: "\(origin)/c/\(slug(of: id))", disclosure: sharing ? disclosure(for: title) : nil)
    }

    private static func disclosure(for title: String) -> CatalogDisclosure {
        CatalogDisclosure(
            heading: "Share your selection with Chia?",
            body: "If you share, Chia opens \(title) already selected for you.",
            recipient: .init(legalName: "Chia Health, Inc.", privacyContact: "privacy@chia.example"),
            dataShared: ["The catalog item you selected"], purpose: "To open your selection at Chia.",
            compensationDisclosure: "The partner may be paid when you buy from Chia.",
            policyURLs: ["privacy": "https://chia.example/privacy", "terms": "https://chia.example/terms"],
            disclosureVersion: disclosureVersion)
    }
}
