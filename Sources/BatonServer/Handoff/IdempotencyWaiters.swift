/// Wakes requests waiting on an in-progress idempotency record in this process as soon as it settles.
///
/// Waiters on another instance's record are not woken from here; they re-check the store every poll interval,
/// which is why every wait is bounded by its caller.
actor IdempotencyWaiters {
    private struct Waiter {
        let continuation: CheckedContinuation<Void, Never>
        let timer: Task<Void, Never>
    }

    private var waiters: [String: [UInt64: Waiter]] = [:]
    private var nextToken: UInt64 = 0

    /// Suspends until ``notify(_:)`` is called for `id` or `limit` passes, whichever is first.
    func wait(for id: String, atMost limit: Duration) async {
        let token = nextToken
        nextToken += 1
        await withCheckedContinuation { continuation in
            let timer = Task { [weak self] in
                try? await Task.sleep(for: limit)
                await self?.resume(id, token)
            }
            waiters[id, default: [:]][token] = Waiter(continuation: continuation, timer: timer)
        }
    }

    /// Wakes everyone waiting for `id`.
    func notify(_ id: String) {
        guard let settled = waiters.removeValue(forKey: id) else { return }
        for waiter in settled.values {
            waiter.timer.cancel()
            waiter.continuation.resume()
        }
    }

    private func resume(_ id: String, _ token: UInt64) {
        guard let waiter = waiters[id]?.removeValue(forKey: token) else { return }
        if waiters[id]?.isEmpty == true { waiters[id] = nil }
        waiter.continuation.resume()
    }
}
