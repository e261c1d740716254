/// A presentation block of a catalog card; `presentation_contract.block_order` lists each exactly once.
public enum CatalogBlock: String, Sendable, Hashable, Codable, CaseIterable {
    /// The mirrored image with its alt text.
    case image
    /// The item's title.
    case title
    /// The item's summary.
    case summary
    /// The item's price text.
    case price

    /// Whether `order` names every block exactly once and nothing else.
    public static func isComplete(_ order: [CatalogBlock]) -> Bool {
        order.count == allCases.count && Set(order).count == allCases.count
    }
}
