import BatonClient
import Foundation
import Synchronization

/// A ``FlowClock`` that only moves when the test says so: a coordinator's timers (retry-after, polling, deadlines)
/// wait until ``advance(by:)`` passes them, and are cancelled with the coordinator. Nothing waits on the wall clock.
final class VirtualFlowClock: FlowClock {
    private struct State {
        var now = Date()
        var sleepers: [UUID: (deadline: Date, continuation: CheckedContinuation<Void, any Error>)] = [:]
    }

    private let state = Mutex(State())

    func now() async -> Date { state.withLock { $0.now } }

    func sleep(until deadline: Date) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    if Task.isCancelled || state.now >= deadline { return true }
                    state.sleepers[id] = (deadline, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Moves time forward and wakes every timer now due.
    func advance(by seconds: TimeInterval) {
        let due = state.withLock { state in
            state.now += seconds
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }
}

/// The first element of `stream` matching `predicate` (the stream is the coordinator's screens, which every
/// change is yielded to; the suite's time limit bounds the wait).
func first<Element: Sendable>(
    _ stream: AsyncStream<Element>, where predicate: (Element) -> Bool
) async -> Element? {
    for await element in stream where predicate(element) { return element }
    return nil
}
