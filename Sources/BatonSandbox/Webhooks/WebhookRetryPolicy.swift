/// How the sandbox retries a webhook until a receiver answers 2xx: bounded attempts, exponential backoff.
///
/// The wait between attempts goes through ``sleep``, so tests record the delays instead of waiting them out.
public struct WebhookRetryPolicy: Sendable {
    /// Attempts per event, the first included; after the last failure the event is marked failed.
    public var maxAttempts: Int = 6
    /// The wait after the first failed attempt; doubled after each further one.
    public var initialDelay: Duration = .seconds(1)
    /// The longest wait between two attempts.
    public var maximumDelay: Duration = .seconds(300)
    /// Each attempt must finish within this.
    public var attemptTimeout: Duration = .seconds(10)
    /// Waits between attempts; `Task.sleep` unless a test injects its own.
    public var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    /// The defaults above.
    public init() {}

    /// The wait after failed attempt number `attempt` (1-based): `initialDelay × 2^(attempt−1)`, capped.
    public func delay(afterAttempt attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(1, attempt) {
            delay *= 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }
}
