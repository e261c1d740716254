import Synchronization

/// One outbound request's hand-over between the calling task and the curl I/O thread.
///
/// The continuation is resumed exactly once, by whichever comes first: completion, cancellation, or shutdown.
final class CurlTransfer: Sendable {
    private enum State {
        case created
        case pending(CheckedContinuation<OutboundResponse, any Error>)
        case cancelledEarly
        case done
    }

    let request: OutboundRequest
    private let state = Mutex(State.created)

    init(_ request: OutboundRequest) { self.request = request }

    /// Stores the continuation; `false` (and the continuation already resumed) when the task was cancelled first.
    func start(_ continuation: CheckedContinuation<OutboundResponse, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            guard case .created = state else { return true }
            state = .pending(continuation)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Marks the transfer cancelled; `true` when the I/O thread must be told (it was already handed over).
    func cancel() -> Bool {
        state.withLock { state in
            switch state {
            case .created:
                state = .cancelledEarly
                return false
            case .pending: return true
            case .cancelledEarly, .done: return false
            }
        }
    }

    /// Whether the transfer still waits for an answer.
    var isPending: Bool {
        state.withLock {
            if case .pending = $0 { return true }
            return false
        }
    }

    /// Resumes the caller with `result`, unless it already was.
    func complete(_ result: Result<OutboundResponse, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<OutboundResponse, any Error>? in
            guard case .pending(let continuation) = state else { return nil }
            state = .done
            return continuation
        }
        continuation?.resume(with: result)
    }
}
