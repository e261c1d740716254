import Foundation

/// What ``Store/takeRateLimitToken(bucket:burst:perMinute:now:)`` decided.
public enum RateLimitDecision: Sendable, Hashable {
    /// A token was taken: the request may proceed.
    case allowed
    /// The bucket is empty: retry after this many whole seconds (at least 1).
    case limited(retryAfterSeconds: Int)
}

/// How long ``Store/purgeRecords(now:retention:)`` keeps each kind of row.
public struct RecordRetention: Sendable, Hashable {
    /// Connect sessions, from their creation (a session lives 30 minutes at BB; its outcome stays readable this long).
    public var connectSessions: TimeInterval
    /// Processed webhook events, from their receipt (redeliveries within this window are still recognised).
    public var webhookEvents: TimeInterval
    /// Rate-limit buckets, from their last use (once idle this long a bucket is full, the same as no row).
    public var rateLimitBuckets: TimeInterval

    /// Creates a retention policy; the defaults are 30 days, 7 days and 1 hour.
    public init(
        connectSessions: TimeInterval = 30 * 24 * 60 * 60, webhookEvents: TimeInterval = 7 * 24 * 60 * 60,
        rateLimitBuckets: TimeInterval = 60 * 60
    ) {
        self.connectSessions = connectSessions
        self.webhookEvents = webhookEvents
        self.rateLimitBuckets = rateLimitBuckets
    }
}

/// How many rows ``Store/purgeRecords(now:retention:)`` deleted, per table.
public struct RecordPurge: Sendable, Hashable {
    /// Connect sessions deleted.
    public var connectSessions: Int
    /// Processed webhook events deleted.
    public var webhookEvents: Int
    /// Idle rate-limit buckets deleted.
    public var rateLimitBuckets: Int

    /// Creates a purge result.
    public init(connectSessions: Int, webhookEvents: Int, rateLimitBuckets: Int) {
        self.connectSessions = connectSessions
        self.webhookEvents = webhookEvents
        self.rateLimitBuckets = rateLimitBuckets
    }
}
