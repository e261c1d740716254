/// One card of `GET /v2/catalog`: the presentation fields in `presentation_contract.block_order`, the mirrored
/// image, and exactly one ``MobileHandoff``.
///
/// JSON: `{"id", "presentation_contract": {"block_order": [...]}, "title", "summary", "priceText",
/// "image": {"url", "alt"}, "handoff": {...}}`. The handoff object decodes strictly (see ``MobileHandoff``); the
/// card checks that the block order names each ``CatalogBlock`` exactly once and that the image URL is https, and
/// ignores unknown keys at its own top level so the backend can add presentation fields later.
public struct CatalogCard: Sendable, Hashable, Codable {
    /// The card's image: a partner-owned https URL and its alt text.
    public struct Image: Sendable, Hashable, Codable {
        /// The mirrored image's neutral URL.
        public let url: HTTPSURL
        /// The alt text.
        public let alt: String

        /// Creates an image.
        public init(url: HTTPSURL, alt: String) {
            self.url = url
            self.alt = alt
        }
    }

    /// The catalog item id (sent back as `catalogItemId` when sharing).
    public let id: String
    /// The order to render the presentation blocks in, before the action(s).
    public let blockOrder: [CatalogBlock]
    /// The title.
    public let title: String
    /// The summary.
    public let summary: String
    /// The price text.
    public let priceText: String
    /// The image.
    public let image: Image
    /// The handoff decision.
    public let handoff: MobileHandoff

    /// Creates a card.
    public init(
        id: String, blockOrder: [CatalogBlock], title: String, summary: String, priceText: String, image: Image,
        handoff: MobileHandoff
    ) {
        self.id = id
        self.blockOrder = blockOrder
        self.title = title
        self.summary = summary
        self.priceText = priceText
        self.image = image
        self.handoff = handoff
    }

    /// Projects `item` under `decision`; `nil` when the decision is hidden or the item cannot be rendered (never
    /// the case for a decision ``resolveCatalogHandoff(item:publication:evidence:now:policy:urls:)`` made for it
    /// under the same `urls`).
    public init?(item: CatalogItem, decision: CatalogHandoffDecision, urls: URLPolicy = .production) {
        let content = Content(item: item, urls: urls)
        guard content.failure == nil, let image = content.image, let neutralURL = content.neutralURL,
            let blockOrder = content.blockOrder
        else { return nil }
        let handoff: MobileHandoff
        switch decision {
        case .hidden:
            return nil
        case .neutralOnly:
            handoff = .neutralOnly(
                MobileHandoff.NeutralOnly(
                    heading: item.neutralHeading ?? "", body: item.neutralBody ?? "", url: neutralURL))
        case .shareOrNeutral(let disclosure):
            guard let share = disclosure.shareOrNeutralHandoff(neutralURL: neutralURL, urls: urls) else { return nil }
            handoff = .shareOrNeutral(share)
        }
        self.init(
            id: item.id, blockOrder: blockOrder, title: item.title ?? "", summary: item.summary ?? "",
            priceText: item.priceText ?? "", image: image, handoff: handoff)
    }

    enum CodingKeys: String, CodingKey {
        case id
        case presentationContract = "presentation_contract"
        case title, summary, priceText, image, handoff
    }

    enum PresentationKeys: String, CodingKey {
        case blockOrder = "block_order"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeNonEmpty(forKey: .id)
        let presentation = try container.nestedContainer(keyedBy: PresentationKeys.self, forKey: .presentationContract)
        blockOrder = try presentation.decode([CatalogBlock].self, forKey: .blockOrder)
        guard CatalogBlock.isComplete(blockOrder) else {
            throw DecodingError.dataCorruptedError(
                forKey: .blockOrder, in: presentation, debugDescription: "must name each block exactly once")
        }
        title = try container.decodeNonEmpty(forKey: .title)
        summary = try container.decodeNonEmpty(forKey: .summary)
        priceText = try container.decodeNonEmpty(forKey: .priceText)
        image = try container.decode(Image.self, forKey: .image)
        handoff = try container.decode(MobileHandoff.self, forKey: .handoff)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        var presentation = container.nestedContainer(keyedBy: PresentationKeys.self, forKey: .presentationContract)
        try presentation.encode(blockOrder, forKey: .blockOrder)
        try container.encode(title, forKey: .title)
        try container.encode(summary, forKey: .summary)
        try container.encode(priceText, forKey: .priceText)
        try container.encode(image, forKey: .image)
        try container.encode(handoff, forKey: .handoff)
    }
}
