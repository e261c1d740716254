import Synchronization

/// Wakes requests waiting on an in-progress idempotency record in this process as soon as it settles.
///
/// Waiters on another instance's record are not woken from here; they re-check the store every poll interval,
/// which is why every wait is bounded by its caller. ``notify(_:)`` is synchronous and, with nobody waiting (every
/// share without a duplicate), costs one uncontended lock: no task, no actor hop.
final class IdempotencyWaiters: Sendable {
    private struct Waiter {
        let continuation: CheckedContinuation<Void, Never>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var waiters: [String: [UInt64: Waiter]] = [:]
        var nextToken: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Suspends until ``notify(_:)`` is called for `id` or `limit` passes, whichever is first.
    func wait(for id: String, atMost limit: Duration) async {
        let token = state.withLock { state in
            defer { state.nextToken += 1 }
            return state.nextToken
        }
        await withCheckedContinuation { continuation in
            state.withLock { $0.waiters[id, default: [:]][token] = Waiter(continuation: continuation) }
            let timer = Task { [weak self] in
                try? await Task.sleep(for: limit)
                self?.resume(id, token)
            }
            // A notify may already have resumed the waiter: then the timer has nothing left to do.
            let attached = state.withLock { state in
                guard state.waiters[id]?[token] != nil else { return false }
                state.waiters[id]?[token]?.timer = timer
                return true
            }
            if !attached { timer.cancel() }
        }
    }

    /// Wakes everyone waiting for `id`.
    func notify(_ id: String) {
        guard let settled = state.withLock({ $0.waiters.removeValue(forKey: id) }) else { return }
        for waiter in settled.values {
            waiter.timer?.cancel()
            waiter.continuation.resume()
        }
    }

    private func resume(_ id: String, _ token: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiters[id]?.removeValue(forKey: token) else { return nil }
            if state.waiters[id]?.isEmpty == true { state.waiters[id] = nil }
            return waiter
        }
        waiter?.continuation.resume()
    }
}
