import Foundation

/// When the next catalog sync runs: the sync interval after a success, capped exponential backoff with jitter
/// after consecutive failures (never sooner than a `Retry-After` the provider sent). Pure: jitter is passed in.
public struct CatalogSyncSchedule: Sendable, Hashable {
    /// The delay between successful syncs (and between a follower's reloads), in seconds.
    public var interval: TimeInterval
    /// The delay after the first failure before jitter, in seconds.
    public var initialBackoff: TimeInterval
    /// The largest delay after failures before jitter, in seconds (never more than ``interval``).
    public var maximumBackoff: TimeInterval

    /// Creates a schedule; backoff starts at `initialBackoff` (default 5 s) and doubles up to `maximumBackoff`
    /// (default 5 min), both capped at `interval`.
    public init(interval: TimeInterval, initialBackoff: TimeInterval = 5, maximumBackoff: TimeInterval = 300) {
        self.interval = max(1, interval)
        self.maximumBackoff = min(max(1, maximumBackoff), self.interval)
        self.initialBackoff = min(max(0.1, initialBackoff), self.maximumBackoff)
    }

    /// The delay before the next attempt.
    ///
    /// - Parameters:
    ///   - consecutiveFailures: failures since the last success (0 after a success).
    ///   - retryAfter: the provider's `Retry-After`, in seconds, if it sent one.
    ///   - jitter: a random value in `0...1`; the delay after a failure is drawn from `[base/2, base]`
    ///     ("equal jitter"), so instances that failed together do not retry together.
    public func delay(consecutiveFailures: Int, retryAfter: TimeInterval? = nil, jitter: Double) -> TimeInterval {
        guard consecutiveFailures > 0 else { return interval }
        let exponent = Double(min(consecutiveFailures - 1, 30))
        let base = min(maximumBackoff, initialBackoff * pow(2, exponent))
        let jittered = base / 2 + base / 2 * min(1, max(0, jitter))
        guard let retryAfter else { return jittered }
        // Honour Retry-After, but never wait past the regular interval because of it.
        return max(jittered, min(retryAfter, interval))
    }
}
