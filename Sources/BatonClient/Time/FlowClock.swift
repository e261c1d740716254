import Foundation

/// The time source of a coordinator: machines never read a clock, coordinators read this one and pass the time in
/// events, and schedule ticks with it. Tests inject a manual clock.
public protocol FlowClock: Sendable {
    /// The current time.
    func now() async -> Date
    /// Suspends until `deadline` (or throws `CancellationError` when the task is cancelled).
    func sleep(until deadline: Date) async throws
}

/// The wall clock.
public struct SystemFlowClock: FlowClock {
    /// Creates the clock.
    public init() {}

    /// `Date()`.
    public func now() async -> Date { Date() }

    /// Sleeps on the continuous clock for the time left until `deadline`.
    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        guard seconds > 0 else { return }
        try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }
}
