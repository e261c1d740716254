/// Requests held open by a `timeout` fault: they wait until released (reset, shutdown) or until a long bound.
actor HangingRequests {
    private var waiters: [Int: (continuation: CheckedContinuation<Void, Never>, timer: Task<Void, Never>)] = [:]
    private var nextID = 0

    /// Waits until ``releaseAll()`` or until `limit` has passed.
    func hang(limit: Duration) async {
        let id = nextID
        nextID += 1
        await withCheckedContinuation { continuation in
            let timer = Task {
                try? await Task.sleep(for: limit)
                self.release(id)
            }
            waiters[id] = (continuation, timer)
        }
    }

    /// Lets every held request finish.
    func releaseAll() {
        for id in Array(waiters.keys) { release(id) }
    }

    private func release(_ id: Int) {
        guard let waiter = waiters.removeValue(forKey: id) else { return }
        waiter.timer.cancel()
        waiter.continuation.resume()
    }
}
