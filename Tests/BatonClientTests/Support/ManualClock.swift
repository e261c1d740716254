import Foundation

@testable import BatonClient

/// A clock that moves only when the test says so; sleepers resume when it passes their deadline.
actor ManualClock: FlowClock {
    private var current: Date
    private var sleepers: [(deadline: Date, continuation: CheckedContinuation<Void, Never>)] = []
    private var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(_ start: Date) { current = start }

    func now() -> Date { current }

    func sleep(until deadline: Date) async throws {
        if deadline <= current { return }
        await withCheckedContinuation { continuation in
            sleepers.append((deadline, continuation))
            resumeSleeperWaiters()
        }
    }

    /// Returns once at least `count` tasks are sleeping on this clock.
    func waitForSleepers(_ count: Int) async {
        if sleepers.count >= count { return }
        await withCheckedContinuation { sleeperWaiters.append((count, $0)) }
    }

    /// Moves the clock to `date` and wakes every sleeper whose deadline has passed.
    func advance(to date: Date) {
        current = max(current, date)
        let due = sleepers.filter { $0.deadline <= current }
        sleepers.removeAll { $0.deadline <= current }
        for sleeper in due { sleeper.continuation.resume() }
    }

    private func resumeSleeperWaiters() {
        let ready = sleeperWaiters.filter { $0.count <= sleepers.count }
        sleeperWaiters.removeAll { $0.count <= sleepers.count }
        for waiter in ready { waiter.continuation.resume() }
    }
}
