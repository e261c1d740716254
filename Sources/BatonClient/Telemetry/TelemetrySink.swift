/// Where a coordinator sends ``TelemetryEvent``s (an analytics SDK adapter, a log, a test recorder).
///
/// `record` is synchronous and must not block: coordinators call it while performing a machine's actions, between
/// which they never suspend.
public protocol TelemetrySink: Sendable {
    /// Records one event.
    func record(_ event: TelemetryEvent)
}

/// A sink that drops every event.
public struct DiscardingTelemetrySink: TelemetrySink {
    /// Creates the sink.
    public init() {}

    /// Drops `event`.
    public func record(_ event: TelemetryEvent) {}
}
