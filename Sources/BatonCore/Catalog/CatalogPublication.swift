import Foundation

/// A published Chia catalog: its items and the instant it stops being valid.
///
/// Dates are RFC 3339 in JSON (decode with ``RFC3339/jsonDecoder()``). From ``expiresAt`` on, every item is
/// hidden: a catalog is never shown stale.
public struct CatalogPublication: Sendable, Hashable, Codable {
    /// Chia's publication id (or version).
    public var id: String
    /// When it was published.
    public var publishedAt: Date?
    /// The first instant at which the publication is no longer valid.
    public var expiresAt: Date
    /// The items.
    public var items: [CatalogItem]

    /// Creates a publication.
    public init(id: String, publishedAt: Date?, expiresAt: Date, items: [CatalogItem]) {
        self.id = id
        self.publishedAt = publishedAt
        self.expiresAt = expiresAt
        self.items = items
    }

    /// Whether the publication is expired at `now` (`now >= expiresAt`).
    public func isExpired(at now: Date) -> Bool { now >= expiresAt }
}
