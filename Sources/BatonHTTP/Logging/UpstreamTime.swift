import Synchronization

/// Time a request spends waiting on upstream services (provider calls), so the access log can say how much of a
/// request's duration was the backend's own: the `upstream_ms` field, like nginx's `$upstream_response_time`.
///
/// ``AccessLogMiddleware`` gives each request one; a provider client adds each call's elapsed time to
/// ``current`` (a task-local, so it follows the request's task and its child tasks).
public final class UpstreamTime: Sendable {
    /// The accumulator of the request the current task serves, if an access log is recording one.
    @TaskLocal public static var current: UpstreamTime?

    private let nanoseconds = Atomic<Int64>(0)

    /// A zero accumulator.
    public init() {}

    /// Adds one upstream call's elapsed time.
    public func add(_ elapsed: Duration) {
        let (seconds, attoseconds) = elapsed.components
        nanoseconds.add(seconds * 1_000_000_000 + attoseconds / 1_000_000_000, ordering: .relaxed)
    }

    /// The total so far, in milliseconds.
    public var milliseconds: Double { Double(nanoseconds.load(ordering: .relaxed)) / 1e6 }
}
