import BatonClient
import Foundation
import Synchronization

/// The one clock of the test suites that moves only when the test says so.
///
/// Read it synchronously (``now``) for a backend's or the sandbox's `now` closure, or use it as a ``FlowClock``:
/// a coordinator's timers (retry-after, polling, deadlines) wait until ``advance(by:)`` or ``advance(to:)`` passes
/// them, and a cancelled timer throws `CancellationError` at once. Nothing waits on the wall clock.
///
/// ```swift
/// let clock = ManualClock()
/// var overrides = BackendOverrides()
/// overrides.now = { clock.now }
/// clock.advance(by: 3600)
/// ```
public final class ManualClock: FlowClock {
    private struct Sleeper {
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [UUID: Sleeper] = [:]
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>

    /// A clock stopped at `start` (a fixed, whole-second instant by default, so millisecond storage round-trips).
    public init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) { state = Mutex(State(now: start)) }

    /// The current time.
    public var now: Date { state.withLock { $0.now } }

    /// The current time, as a ``FlowClock``.
    public func now() async -> Date { now }

    /// Returns once the clock reaches `deadline`; throws `CancellationError` if the task is cancelled first.
    public func sleep(until deadline: Date) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, ready) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if Task.isCancelled || state.now >= deadline { return (true, []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (false, Self.takeReadyWaiters(&state))
                }
                if resumeNow { continuation.resume() }
                for waiter in ready { waiter.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// How many tasks are sleeping on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Returns once at least `count` tasks are sleeping on this clock.
    public func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Moves the clock forward by `seconds` and wakes every sleeper now due.
    public func advance(by seconds: TimeInterval) { move { $0 + seconds } }

    /// Moves the clock to `date` (never backwards) and wakes every sleeper now due.
    public func advance(to date: Date) { move { max($0, date) } }

    /// Sets the clock to `date`, backwards too (a clock step), and wakes every sleeper now due.
    public func set(_ date: Date) { move { _ in date } }

    private func move(_ next: (Date) -> Date) {
        let due = state.withLock { state in
            state.now = next(state.now)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    private static func takeReadyWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
        state.sleeperWaiters.removeAll { $0.count <= count }
        return ready
    }
}
