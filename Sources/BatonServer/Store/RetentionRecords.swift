import Foundation

/// What ``Store/takeRateLimitToken(bucket:burst:perMinute:now:)`` decided.
public enum RateLimitDecision: Sendable, Hashable {
    /// A token was taken: the request may proceed.
    case allowed
    /// The bucket is empty: retry after this many whole seconds (at least 1).
    case limited(retryAfterSeconds: Int)
}

/// One request's draw on a token bucket: the arguments of ``Store/takeRateLimitToken(bucket:burst:perMinute:now:)``.
public struct RateLimitTake: Sendable, Hashable {
    /// The bucket (`user:<id>`).
    public var bucket: String
    /// Requests the bucket holds when full.
    public var burst: Int
    /// Requests it gets back a minute.
    public var perMinute: Int

    /// A draw on `bucket`.
    public init(bucket: String, burst: Int, perMinute: Int) {
        self.bucket = bucket
        self.burst = burst
        self.perMinute = perMinute
    }
}

/// What ``Store/takeRateLimitTokenAndClaim(_:user:key:fingerprint:owner:leaseUntil:now:)`` decided.
public enum RateLimitedClaim: Sendable, Hashable {
    /// The bucket is empty: nothing was claimed; retry after this many whole seconds (at least 1).
    case limited(retryAfterSeconds: Int)
    /// A token was taken, then the claim answered this.
    case claim(IdempotencyClaim)
}

/// How long ``Store/purgeRecords(now:retention:keepingAssets:)`` keeps each kind of row.
public struct RecordRetention: Sendable, Hashable {
    /// Connect sessions, from their creation (a session lives 30 minutes at BB; its outcome stays readable this long);
    /// also superseded verifications, from their creation.
    public var connectSessions: TimeInterval
    /// Processed webhook events, from their receipt (redeliveries within this window are still recognised).
    public var webhookEvents: TimeInterval
    /// Rate-limit buckets, from their last use (once idle this long a bucket is full, the same as no row).
    public var rateLimitBuckets: TimeInterval
    /// Image bytes the current catalog no longer shows, from when they were stored (an instance still serving an
    /// older publication finds them this long).
    public var assetBytes: TimeInterval

    /// Creates a retention policy; the defaults are 30 days, 7 days, 1 hour and 7 days.
    public init(
        connectSessions: TimeInterval = 30 * 24 * 60 * 60, webhookEvents: TimeInterval = 7 * 24 * 60 * 60,
        rateLimitBuckets: TimeInterval = 60 * 60, assetBytes: TimeInterval = 7 * 24 * 60 * 60
    ) {
        self.connectSessions = connectSessions
        self.webhookEvents = webhookEvents
        self.rateLimitBuckets = rateLimitBuckets
        self.assetBytes = assetBytes
    }
}

/// How many rows ``Store/purgeRecords(now:retention:keepingAssets:)`` deleted, per table.
///
/// The stores make it (memberwise); other modules only read it.
public struct RecordPurge: Sendable, Hashable {
    /// Connect sessions deleted.
    public var connectSessions: Int
    /// Processed webhook events deleted.
    public var webhookEvents: Int
    /// Idle rate-limit buckets deleted.
    public var rateLimitBuckets: Int
    /// Superseded verifications deleted.
    public var verifications: Int = 0
    /// Stored image bytes deleted.
    public var assetBytes: Int = 0
    /// How many writes the purge took (each deleting at most one batch of one table).
    public var batches: Int = 0
}
