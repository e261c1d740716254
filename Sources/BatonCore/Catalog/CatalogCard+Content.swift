extension CatalogCard {
    /// The renderable presentation of an item, or the reason it cannot be rendered (rule 1 of the decision).
    struct Content {
        var image: Image?
        var neutralURL: HTTPSURL?
        var blockOrder: [CatalogBlock]?
        var failure: CatalogHandoffDecision.HiddenReason?

        init(item: CatalogItem, urls: URLPolicy) {
            if let link = item.mirroredImageURL, let url = HTTPSURL(link, policy: urls), let alt = item.imageAltText,
                !alt.isEmpty
            {
                image = Image(url: url, alt: alt)
            }
            neutralURL = item.neutralURL.flatMap { HTTPSURL($0, policy: urls) }
            if let names = item.blockOrder {
                let blocks = names.compactMap(CatalogBlock.init(rawValue:))
                if blocks.count == names.count, CatalogBlock.isComplete(blocks) { blockOrder = blocks }
            }
            let texts = [item.title, item.summary, item.priceText, item.neutralHeading, item.neutralBody]
            if image == nil {
                failure = .imageUnavailable
            } else if neutralURL == nil || blockOrder == nil || texts.contains(where: { $0?.isEmpty ?? true }) {
                failure = .unrenderable
            }
        }
    }
}
