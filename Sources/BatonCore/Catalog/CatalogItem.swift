/// One item of a Chia catalog publication, as the partner backend holds it after sync and image mirroring.
///
/// Decoding is deliberately tolerant of missing presentation values (they are optional here): one bad item must
/// not break a whole publication. ``resolveCatalogHandoff(item:publication:evidence:now:policy:)`` hides an item
/// whose required fields cannot be rendered.
public struct CatalogItem: Sendable, Hashable, Codable {
    /// Chia's catalog item id.
    public var id: String
    /// Publication status; only `published` items can be shown.
    public var status: String
    /// Card title.
    public var title: String?
    /// Card summary.
    public var summary: String?
    /// Card price, as display text.
    public var priceText: String?
    /// Chia's id of the item's (authenticated) image asset; never shown to the app.
    public var imageAssetID: String?
    /// Alt text for the image.
    public var imageAltText: String?
    /// The partner-owned neutral URL of the mirrored image (`/assets/<sha256>.<ext>`), set once mirrored.
    public var mirroredImageURL: String?
    /// `presentation_contract.block_order`, as published (unknown names make the item unrenderable).
    public var blockOrder: [String]?
    /// Regions (for example ISO 3166 codes) where the item may be shown; compared ASCII case-insensitively.
    public var regions: [String]
    /// Whether the user may share their selection with Chia for this item.
    public var sharingAllowed: Bool
    /// The neutral (no-sharing) page's heading.
    public var neutralHeading: String?
    /// The neutral (no-sharing) page's body.
    public var neutralBody: String?
    /// The neutral Chia page (https), opened without sharing.
    public var neutralURL: String?
    /// The current disclosure, required for sharing.
    public var disclosure: CatalogDisclosure?

    /// The status value of a published item.
    public static let publishedStatus = "published"

    /// Creates an item.
    public init(
        id: String, status: String = CatalogItem.publishedStatus, title: String?, summary: String?,
        priceText: String?, imageAssetID: String?, imageAltText: String?, mirroredImageURL: String?,
        blockOrder: [String]?, regions: [String], sharingAllowed: Bool, neutralHeading: String?,
        neutralBody: String?, neutralURL: String?, disclosure: CatalogDisclosure?
    ) {
        self.id = id
        self.status = status
        self.title = title
        self.summary = summary
        self.priceText = priceText
        self.imageAssetID = imageAssetID
        self.imageAltText = imageAltText
        self.mirroredImageURL = mirroredImageURL
        self.blockOrder = blockOrder
        self.regions = regions
        self.sharingAllowed = sharingAllowed
        self.neutralHeading = neutralHeading
        self.neutralBody = neutralBody
        self.neutralURL = neutralURL
        self.disclosure = disclosure
    }

    enum CodingKeys: String, CodingKey {
        case id, status, title, summary, priceText
        case imageAssetID = "imageAssetId"
        case imageAltText
        case mirroredImageURL = "mirroredImageUrl"
        case presentationContract = "presentation_contract"
        case regions, sharingAllowed, neutralHeading, neutralBody
        case neutralURL = "neutralUrl"
        case disclosure
    }

    enum PresentationKeys: String, CodingKey {
        case blockOrder = "block_order"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        status = try container.decode(String.self, forKey: .status)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        summary = try container.decodeIfPresent(String.self, forKey: .summary)
        priceText = try container.decodeIfPresent(String.self, forKey: .priceText)
        imageAssetID = try container.decodeIfPresent(String.self, forKey: .imageAssetID)
        imageAltText = try container.decodeIfPresent(String.self, forKey: .imageAltText)
        mirroredImageURL = try container.decodeIfPresent(String.self, forKey: .mirroredImageURL)
        if container.contains(.presentationContract) {
            let presentation = try container.nestedContainer(
                keyedBy: PresentationKeys.self, forKey: .presentationContract)
            blockOrder = try presentation.decodeIfPresent([String].self, forKey: .blockOrder)
        } else {
            blockOrder = nil
        }
        regions = try container.decodeIfPresent([String].self, forKey: .regions) ?? []
        sharingAllowed = try container.decodeIfPresent(Bool.self, forKey: .sharingAllowed) ?? false
        neutralHeading = try container.decodeIfPresent(String.self, forKey: .neutralHeading)
        neutralBody = try container.decodeIfPresent(String.self, forKey: .neutralBody)
        neutralURL = try container.decodeIfPresent(String.self, forKey: .neutralURL)
        disclosure = try container.decodeIfPresent(CatalogDisclosure.self, forKey: .disclosure)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(summary, forKey: .summary)
        try container.encodeIfPresent(priceText, forKey: .priceText)
        try container.encodeIfPresent(imageAssetID, forKey: .imageAssetID)
        try container.encodeIfPresent(imageAltText, forKey: .imageAltText)
        try container.encodeIfPresent(mirroredImageURL, forKey: .mirroredImageURL)
        if let blockOrder {
            var presentation = container.nestedContainer(keyedBy: PresentationKeys.self, forKey: .presentationContract)
            try presentation.encode(blockOrder, forKey: .blockOrder)
        }
        try container.encode(regions, forKey: .regions)
        try container.encode(sharingAllowed, forKey: .sharingAllowed)
        try container.encodeIfPresent(neutralHeading, forKey: .neutralHeading)
        try container.encodeIfPresent(neutralBody, forKey: .neutralBody)
        try container.encodeIfPresent(neutralURL, forKey: .neutralURL)
        try container.encodeIfPresent(disclosure, forKey: .disclosure)
    }
}
