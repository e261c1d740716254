import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
import Synchronization
#endif

extension URLSession {
    /// Loads `request` like `data(for:)`, but safe to cancel on Linux.
    ///
    /// swift-corelibs-foundation's `data(for:)` cancels its task from inside the Swift task's cancellation handler,
    /// and `URLSessionTask.cancel()` there does a `sync` onto the session's queue while the runtime holds the task's
    /// status lock. With two cooperative threads (one per core) two such cancellations deadlocked the process. Here
    /// the cancellation only schedules `cancel()` on another queue, and the completion handler resumes the caller.
    /// Apple's own `data(for:)` has no such problem and is used as it is there.
    public func cancellableData(for request: URLRequest) async throws -> (Data, URLResponse) {
        #if canImport(FoundationNetworking)
        let pending = Mutex<PendingLoad>(PendingLoad())
        let task = dataTask(with: request) { data, response, error in
            let result: Result<(Data, URLResponse), any Error>
            if let data, let response {
                result = .success((data, response))
            } else {
                result = .failure(error ?? URLError(.badServerResponse))
            }
            pending.withLock { $0.finish(result) }?.resume(with: result)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if let result = pending.withLock({ $0.wait(continuation) }) {
                    continuation.resume(with: result)
                } else {
                    task.resume()
                }
            }
        } onCancel: {
            DispatchQueue.global().async { task.cancel() }
        }
        #else
        return try await data(for: request)
        #endif
    }
}

#if canImport(FoundationNetworking)

/// The meeting point of a completion handler and the continuation waiting for it, whichever comes first.
private struct PendingLoad: ~Copyable {
    private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
    private var result: Result<(Data, URLResponse), any Error>?

    init() {}

    /// Records the result; the continuation to resume, if it is already waiting.
    mutating func finish(
        _ result: Result<(Data, URLResponse), any Error>
    )
        -> CheckedContinuation<(Data, URLResponse), any Error>?
    {
        guard let waiting = continuation else {
            self.result = result
            return nil
        }
        continuation = nil
        return waiting
    }

    /// Parks `continuation`; the result to resume it with at once, if the load already finished.
    mutating func wait(
        _ continuation: CheckedContinuation<(Data, URLResponse), any Error>
    )
        -> Result<(Data, URLResponse), any Error>?
    {
        if let result { return result }
        self.continuation = continuation
        return nil
    }
}
#endif
