import Foundation

/// How one provider call is made: its timeout, and whether and how it is retried.
///
/// A retry resends the exact same request (same `Idempotency-Key`, same body). Calls the provider dedupes are
/// retried after any transient failure; calls it does not dedupe only when the request provably never left
/// (connection refused), so a retry can never start a second journey.
public struct ProviderCallPolicy: Sendable {
    /// Whether a repeated request has the same effect as one.
    public enum Repeatability: Sendable {
        /// The provider dedupes (an `Idempotency-Key`, create-or-get, or a read): retry any transient failure.
        case idempotent
        /// A repeat could create a second resource: retry only when the request never reached the provider.
        case onlyIfNotSent
    }

    /// Each attempt must finish within this.
    public var timeout: Duration
    /// Attempts per call, the first included.
    public var maxAttempts: Int
    /// The wait after the first failed attempt; doubled after each further one.
    public var initialBackoff: Duration
    /// The longest wait between two attempts (also caps a provider's `Retry-After`).
    public var maximumBackoff: Duration

    /// Creates a policy.
    public init(
        timeout: Duration = .seconds(10), maxAttempts: Int = 3, initialBackoff: Duration = .milliseconds(200),
        maximumBackoff: Duration = .seconds(2)
    ) {
        self.timeout = timeout
        self.maxAttempts = max(1, maxAttempts)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    /// The wait before attempt `attempt + 1` after attempt `attempt` (1-based) failed, honouring a provider's
    /// `Retry-After` up to ``maximumBackoff``.
    public func backoff(afterAttempt attempt: Int, retryAfterSeconds: Int?) -> Duration {
        if let retryAfterSeconds { return min(.seconds(retryAfterSeconds), maximumBackoff) }
        var delay = initialBackoff
        for _ in 1..<max(1, attempt) { delay = min(delay * 2, maximumBackoff) }
        return min(delay, maximumBackoff)
    }

    /// The longest one call can take, every attempt and wait included: the basis of an idempotency lease.
    public var worstCaseDuration: Duration {
        var total = timeout * maxAttempts
        for attempt in 1..<maxAttempts { total += backoff(afterAttempt: attempt, retryAfterSeconds: nil) }
        return total
    }
}
