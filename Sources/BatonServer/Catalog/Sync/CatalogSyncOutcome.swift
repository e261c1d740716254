import Foundation

/// What one pass of ``CatalogSync/syncOnce()`` did.
public enum CatalogSyncOutcome: Sendable, Hashable {
    /// A new publication was fetched, its images mirrored, and it is stored and served.
    case updated(publicationID: String, items: Int, itemsWithImage: Int, imagesRejected: Int)
    /// Chia answered `304 Not Modified` (images that had failed were retried).
    case notModified
    /// Another instance holds the lease; this one reloaded the stored publication.
    case follower
    /// Another pass was already running on this instance.
    case skipped
    /// Nothing new is served; the last good publication is kept until its own expiry.
    case failed(CatalogSyncFailure)

    var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}

/// Why a sync pass failed: a stable code (safe to log and to put in metrics) and the provider's `Retry-After`.
public struct CatalogSyncFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// `status_<code>`, `transport_<kind>`, `invalid_body`, `expired_publication`, `asset_origin_<reason>`,
    /// `lease_lost` or `store`.
    public var code: String
    /// The provider's `Retry-After`, in seconds, when it sent one.
    public var retryAfter: TimeInterval?

    /// Creates a failure.
    public init(code: String, retryAfter: TimeInterval? = nil) {
        self.code = code
        self.retryAfter = retryAfter
    }

    public var description: String { "CatalogSyncFailure(\(code))" }
}
