import Synchronization

/// Counts requests between their first byte and their last response byte, and knows which handlers are running,
/// so shutdown can wait for them (bounded) and answer the stragglers.
final class InFlightRequests: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var count = 0
        var running: [ObjectIdentifier: RequestContext] = [:]
        var shuttingDown = false
        var forced = false
        var waiters: [Waiter] = []
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Requests started and not yet completed.
    var count: Int { state.withLock { $0.count } }

    var isShuttingDown: Bool { state.withLock { $0.shuttingDown } }

    func began() { state.withLock { $0.count += 1 } }

    func ended() {
        let ready = state.withLock { state -> [Waiter] in
            state.count -= 1
            guard state.count == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    /// Records a running handler; `false` once shutdown has given up waiting (answer 503 instead of running it).
    func register(_ context: RequestContext) -> Bool {
        state.withLock { state in
            guard !state.forced else { return false }
            state.running[ObjectIdentifier(context)] = context
            return true
        }
    }

    func unregister(_ context: RequestContext) {
        _ = state.withLock { $0.running.removeValue(forKey: ObjectIdentifier(context)) }
    }

    func beginShutdown() { state.withLock { $0.shuttingDown = true } }

    /// Waits until no request is in flight; `false` if `timeout` passed first.
    func waitUntilIdle(timeout: Duration) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        var timer: Task<Void, Never>?
        let idle = await withCheckedContinuation { continuation in
            let idle = state.withLock { state in
                if state.count == 0 { return true }
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
            state.forced = true
            defer { state.running = [:] }
            return Array(state.running.values)
        }
        for context in running { context.forceFinish() }
    }
}
