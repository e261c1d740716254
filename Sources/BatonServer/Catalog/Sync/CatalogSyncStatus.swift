import Foundation

/// What the catalog sync is doing and has done on this instance, for `/metrics` and `baton serve` output.
///
/// A value copy taken at one instant (``CatalogSync/status``); ``metricsText(now:)`` renders it in the
/// Prometheus text format. Nothing in it is secret: no URL, key or asset id.
public struct CatalogSyncStatus: Sendable, Hashable {
    /// Whether this instance holds the sync lease (only the leader talks to Chia).
    public var isLeader = false
    /// Whether a sync pass is running now.
    public var isSyncing = false
    /// Images mirrored so far in the running pass, and how many it will try.
    public var imagesDone = 0
    /// Images the running pass will try.
    public var imagesTotal = 0
    /// Passes that fetched a new publication and stored it.
    public var syncsUpdated = 0
    /// Passes answered `304 Not Modified`.
    public var syncsNotModified = 0
    /// Passes that failed (the last good publication kept).
    public var syncsFailed = 0
    /// Passes in which another instance held the lease and this one reloaded from the store.
    public var followerReloads = 0
    /// Images mirrored since start.
    public var imagesMirrored = 0
    /// Images that could not be mirrored since start (their items hidden).
    public var imagesRejected = 0
    /// Failures since the last success.
    public var consecutiveFailures = 0
    /// The last failure, as a stable code (`status_503`, `transport`, `invalid_body`, …).
    public var lastFailure: String?
    /// When the last pass started.
    public var lastAttemptAt: Date?
    /// When the last pass succeeded (updated or not modified).
    public var lastSuccessAt: Date?
    /// When the next pass is due.
    public var nextAttemptAt: Date?
    /// The publication served, if any.
    public var publicationID: String?
    /// When the served publication expires (its items are hidden from then on).
    public var publicationExpiresAt: Date?
    /// Items in the served publication.
    public var itemCount = 0
    /// Items of the served publication whose image is mirrored.
    public var mirroredItemCount = 0

    /// Creates an empty status.
    public init() {}

    /// The status as Prometheus text-format lines (`baton_catalog_…`), each metric with `# HELP` and `# TYPE`.
    public func metricsText(now: Date) -> String {
        func seconds(_ date: Date?) -> Double { date?.timeIntervalSince1970 ?? 0 }
        let expired = publicationExpiresAt.map { now >= $0 } ?? true
        let metrics: [(String, String, Double, String)] = [
            ("baton_catalog_sync_leader", "gauge", isLeader ? 1 : 0, "1 while this instance holds the sync lease."),
            ("baton_catalog_sync_in_progress", "gauge", isSyncing ? 1 : 0, "1 while a sync is running."),
            ("baton_catalog_sync_images_done", "gauge", Double(imagesDone), "Images handled in the running sync."),
            ("baton_catalog_sync_images_total", "gauge", Double(imagesTotal), "Images to handle in the running sync."),
            ("baton_catalog_syncs_updated_total", "counter", Double(syncsUpdated), "Syncs that stored a new catalog."),
            (
                "baton_catalog_syncs_not_modified_total", "counter", Double(syncsNotModified),
                "Syncs answered 304 Not Modified."
            ),
            ("baton_catalog_syncs_failed_total", "counter", Double(syncsFailed), "Syncs that failed."),
            (
                "baton_catalog_follower_reloads_total", "counter", Double(followerReloads),
                "Stored catalogs reloaded by a non-leader instance."
            ),
            ("baton_catalog_images_mirrored_total", "counter", Double(imagesMirrored), "Images mirrored."),
            (
                "baton_catalog_images_rejected_total", "counter", Double(imagesRejected),
                "Images refused (type, size or origin)."
            ),
            (
                "baton_catalog_sync_consecutive_failures", "gauge", Double(consecutiveFailures),
                "Syncs failed in a row since the last success."
            ),
            (
                "baton_catalog_last_success_timestamp_seconds", "gauge", seconds(lastSuccessAt),
                "Unix time of the last successful sync (0: never)."
            ),
            (
                "baton_catalog_next_attempt_timestamp_seconds", "gauge", seconds(nextAttemptAt),
                "Unix time of the next scheduled sync."
            ),
            (
                "baton_catalog_publication_expires_timestamp_seconds", "gauge", seconds(publicationExpiresAt),
                "Unix time the served publication expires (0: none loaded)."
            ),
            (
                "baton_catalog_publication_expired", "gauge", expired ? 1 : 0,
                "1 when no unexpired publication is served: every Chia item is hidden."
            ),
            ("baton_catalog_items", "gauge", Double(itemCount), "Items in the served publication."),
            (
                "baton_catalog_items_with_image", "gauge", Double(mirroredItemCount),
                "Items of the served publication whose image is mirrored."
            ),
        ]
        var text = ""
        for (name, type, value, help) in metrics {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(Self.format(value))\n"
        }
        return text
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
