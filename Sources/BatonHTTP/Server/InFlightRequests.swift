import Synchronization

/// Counts requests between their first byte and their last response byte, and knows which handlers are suspended,
/// so shutdown can wait for them (bounded) and answer the stragglers.
///
/// The count and the shutdown flags are atomics: every request touches them, on every libmicrohttpd thread. The lock
/// is taken only by a handler that suspends (``register(_:)``) and by shutdown.
final class InFlightRequests: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var running: [ObjectIdentifier: RequestContext] = [:]
        var waiters: [Waiter] = []
        var nextWaiter = 0
    }

    private let state = Mutex(State())
    private let started = Atomic(0)
    private let shuttingDown = Atomic(false)
    private let forced = Atomic(false)

    /// Requests started and not yet completed.
    var count: Int { started.load(ordering: .acquiring) }

    var isShuttingDown: Bool { shuttingDown.load(ordering: .relaxed) }

    /// Shutdown has given up waiting: answer 503 instead of running a handler.
    var isForced: Bool { forced.load(ordering: .relaxed) }

    func began() { started.add(1, ordering: .relaxed) }

    func ended() {
        guard started.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        // A waiter checks the count under the lock before it parks, so taking the lock here cannot miss one.
        let ready = state.withLock { state -> [Waiter] in
            guard started.load(ordering: .acquiring) == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    /// Records a suspended handler; `false` once shutdown has given up waiting (answer 503 instead).
    func register(_ context: RequestContext) -> Bool {
        state.withLock { state in
            // Set under this lock by forceFinishAll, so reading it here cannot race a shutdown.
            guard !forced.load(ordering: .relaxed) else { return false }
            state.running[ObjectIdentifier(context)] = context
            return true
        }
    }

    func unregister(_ context: RequestContext) {
        _ = state.withLock { $0.running.removeValue(forKey: ObjectIdentifier(context)) }
    }

    func beginShutdown() { shuttingDown.store(true, ordering: .relaxed) }

    /// Waits until no request is in flight; `false` if `timeout` passed first.
    func waitUntilIdle(timeout: Duration) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        var timer: Task<Void, Never>?
        let idle = await withCheckedContinuation { continuation in
            let idle = state.withLock { state in
                if started.load(ordering: .acquiring) == 0 { return true }
                state.waiters.append(Waiter(id: id, continuation: continuation))
                return false
            }
            if idle {
                continuation.resume(returning: true)
            } else {
                timer = Task {
                    try? await Task.sleep(for: timeout)
                    self.expire(id)
                }
            }
        }
        timer?.cancel()
        return idle
    }

    private func expire(_ id: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: false)
    }

    /// Cancels every running handler and answers its request with 503; later handlers are refused the same way.
    func forceFinishAll() {
        let running = state.withLock { state in
            forced.store(true, ordering: .relaxed)
            defer { state.running = [:] }
            return Array(state.running.values)
        }
        for context in running { context.forceFinish() }
    }
}
