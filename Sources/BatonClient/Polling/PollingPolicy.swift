import Foundation

/// How long and how often a flow asks the backend for an outcome after the browser is gone.
public struct PollingPolicy: Sendable, Hashable {
    /// Time between the end of one status request and the start of the next.
    public var interval: TimeInterval
    /// Time after the first request at which polling gives up with "unknown, check later".
    public var timeout: TimeInterval

    /// Creates a policy; both values are clamped to at least one second.
    public init(interval: TimeInterval = 2, timeout: TimeInterval = 60) {
        self.interval = max(1, interval)
        self.timeout = max(1, timeout)
    }
}

/// The pure bookkeeping of one bounded polling run: when the next request is due and when to give up.
struct PollSchedule: Sendable, Hashable {
    /// When polling gives up.
    let deadline: Date
    /// A status request is running.
    private(set) var requestInFlight: Bool
    /// When the next request is due, while none is running.
    private(set) var nextRequestAt: Date?

    /// Starts polling at `now` with a request in flight.
    init(startingAt now: Date, policy: PollingPolicy) {
        deadline = now.addingTimeInterval(policy.timeout)
        requestInFlight = true
        nextRequestAt = nil
    }

    /// A non-final answer (or a retryable failure) arrived at `now`: the time of the next tick to schedule.
    mutating func answerArrived(at now: Date, policy: PollingPolicy) -> Date {
        requestInFlight = false
        let next = min(now.addingTimeInterval(policy.interval), deadline)
        nextRequestAt = next
        return next
    }

    /// What a tick at `now` means for this run.
    enum TickOutcome: Equatable {
        /// Nothing to do yet.
        case wait
        /// Send the next request (now marked in flight).
        case request
        /// The deadline has passed.
        case timedOut
    }

    /// Interprets a tick at `now`.
    mutating func tick(at now: Date) -> TickOutcome {
        if now >= deadline { return .timedOut }
        guard !requestInFlight, let due = nextRequestAt, now >= due else { return .wait }
        requestInFlight = true
        nextRequestAt = nil
        return .request
    }
}
