import Foundation

/// One step of a catalog sync, reported to the progress callback (`baton serve` prints ``description``).
///
/// Carries counts and stable codes only: never a URL, key or asset id.
public enum CatalogSyncEvent: Sendable, Hashable, CustomStringConvertible {
    /// A new publication was fetched; `images` distinct images will be mirrored.
    case fetched(publicationID: String, items: Int, images: Int)
    /// Mirroring progress.
    case mirroring(done: Int, total: Int)
    /// The new publication is stored and served.
    case updated(publicationID: String, items: Int, itemsWithImage: Int, imagesRejected: Int)
    /// Chia answered `304 Not Modified`; the publication served is unchanged.
    case notModified(publicationID: String?, items: Int)
    /// Another instance holds the sync lease; this one reloaded what it stored.
    case follower(publicationID: String?, items: Int)
    /// The pass failed (stable code); the last good publication is kept until its own expiry.
    case failed(reason: String, retryIn: TimeInterval)

    public var description: String {
        switch self {
        case .fetched(let id, let items, let images):
            "catalog sync: fetched publication \(id) (\(items) items, \(images) images to mirror)"
        case .mirroring(let done, let total):
            "catalog sync: mirrored \(done)/\(total) images"
        case .updated(let id, let items, let withImage, let rejected):
            "catalog sync: serving publication \(id): \(items) items, \(withImage) with a mirrored image, "
                + (rejected == 1 ? "1 image rejected" : "\(rejected) images rejected")
        case .notModified(let id, let items):
            "catalog sync: not modified (publication \(id ?? "none"), \(items) items)"
        case .follower(let id, let items):
            "catalog sync: another instance syncs; serving stored publication \(id ?? "none") (\(items) items)"
        case .failed(let reason, let retryIn):
            "catalog sync: failed (\(reason)); keeping the last good publication, retrying in \(Int(retryIn.rounded())) s"
        }
    }
}
