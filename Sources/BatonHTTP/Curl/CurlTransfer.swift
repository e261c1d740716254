import Synchronization

/// One outbound request's hand-over between the calling task and what drives it: the transport's curl I/O thread, or
/// the event loop the request was sent from.
///
/// The continuation is resumed exactly once, by whichever comes first: completion, cancellation, or shutdown.
final class CurlTransfer: Sendable {
    /// What drives the transfer once started, and so must be told of a cancellation.
    enum Driver: Sendable {
        case thread(CurlMulti)
        case loop(EventLoop, LoopCurl)

        /// Tells the driver, on its own thread, to detach and fail `transfer`.
        func cancel(_ transfer: CurlTransfer) {
            switch self {
            case .thread(let multi): multi.submit(.cancel(transfer))
            case .loop(let loop, let attachment): loop.execute { attachment.cancel(transfer) }
            }
        }
    }

    private enum State {
        case created
        case pending(CheckedContinuation<OutboundResponse, any Error>, Driver)
        case cancelledEarly
        case done
    }

    let request: OutboundRequest
    private let state = Mutex(State.created)

    init(_ request: OutboundRequest) { self.request = request }

    /// Stores the continuation and what will drive the transfer; `false` (and the continuation already resumed) when
    /// the task was cancelled first.
    func start(_ continuation: CheckedContinuation<OutboundResponse, any Error>, driver: Driver) -> Bool {
        let cancelled = state.withLock { state in
            guard case .created = state else { return true }
            state = .pending(continuation, driver)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Marks the transfer cancelled; the driver that must be told when it was already handed over.
    func cancel() -> Driver? {
        state.withLock { state in
            switch state {
            case .created:
                state = .cancelledEarly
                return nil
            case .pending(_, let driver): return driver
            case .cancelledEarly, .done: return nil
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
            guard case .pending(let continuation, _) = state else { return nil }
            state = .done
            return continuation
        }
        continuation?.resume(with: result)
    }
}
