import Synchronization

/// One request's state between libmicrohttpd's callbacks and the task running its handler.
///
/// MHD calls the access handler on the connection's event loop, and the handler's task runs there too, but shutdown
/// finishes a straggler from another thread (``forceFinish()``), so the state sits behind a `Mutex`. The connection
/// is kept as an address (an integer), handed to the loop to resume and turned back into a pointer only by
/// ``resumeConnection(_:)`` in the wrapper.
final class RequestContext: Sendable {
    enum Step {
        case readHeaders
        case appendBody
        case run(HTTPRequest)
        case refuse(HTTPError)
        case send(HTTPResponse)
        case nothing
    }

    private enum Phase {
        case new
        case receiving
        /// The handler's task is running on the libmicrohttpd thread, up to its first suspension (`Task.immediate`).
        case running
        case suspended
        case finished(HTTPResponse)
        case sent
    }

    private struct State {
        var phase = Phase.new
        var request: HTTPRequest?
        var bodyTooLarge = false
        var task: Task<Void, Never>?
    }

    let target: String
    let id: String
    private let connection: UInt
    /// The event loop running the connection's daemon, which resumes it.
    private let loop: EventLoop
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    init(target: String, connection: UInt, id: String, loop: EventLoop) {
        self.target = target
        self.connection = connection
        self.id = id
        self.loop = loop
    }

    /// What the access handler should do on this call, given the upload bytes MHD offers.
    func nextStep(uploadBytes: Int) -> Step {
        state.withLock { state in
            switch state.phase {
            case .new:
                return .readHeaders
            case .receiving where uploadBytes > 0:
                return .appendBody
            case .receiving:
                if state.bodyTooLarge {
                    state.phase = .sent
                    return .refuse(.payloadTooLarge)
                }
                guard let request = state.request else { return .nothing }
                state.request = nil
                state.phase = .running
                return .run(request)
            case .finished(let response):
                state.phase = .sent
                return .send(response)
            case .running, .suspended, .sent:
                return .nothing
            }
        }
    }

    /// Headers are in: the body (if any) comes next. With `discardBody` (declared too large, but worth reading to
    /// keep the connection from being reset) the body is read and dropped, and the answer is 413.
    func headersRead(method: HTTPMethod, headers: HTTPHeaders, remoteAddress: String?, discardBody: Bool = false) {
        var request = HTTPRequest(method: method, target: target, headers: headers)
        request.id = id
        request.remoteAddress = remoteAddress
        if !discardBody, let length = headers["content-length"].flatMap(Int.init) {
            request.body.reserveCapacity(length)
        }
        state.withLock {
            $0.request = request
            $0.bodyTooLarge = discardBody
            $0.phase = .receiving
        }
    }

    func appendBody(_ bytes: UnsafeRawBufferPointer, limit: Int) {
        state.withLock { state in
            guard !state.bodyTooLarge, var request = state.request else { return }
            state.request = nil  // keep the body uniquely referenced while appending
            if request.body.count + bytes.count > limit {
                state.bodyTooLarge = true
                request.body = []
            } else {
                request.body.append(contentsOf: bytes)
            }
            state.request = request
        }
    }

    func bodyDeadlinePassed(_ timeout: Duration) -> Bool { ContinuousClock.now - started > timeout }

    func markRefused() { state.withLock { $0.phase = .sent } }

    /// What the access handler does once the handler's first slice has returned.
    enum AfterFirstSlice {
        /// The handler finished inside its first slice: queue this response now.
        case send(HTTPResponse)
        /// The connection is suspended; the task resumes it when the handler finishes.
        case suspended
        /// Shutdown has given up waiting: answer 503 now (the task is cancelled).
        case refused
    }

    /// Called by the access handler once the task's first slice has returned. If the handler has not finished, the
    /// context is registered (for shutdown to find) and `suspend` is called, both under the lock, so that a
    /// ``finish(_:)`` racing on another thread resumes the connection only once it is suspended.
    func afterFirstSlice(
        task: Task<Void, Never>, register: (RequestContext) -> Bool, suspend: () -> Void
    ) -> AfterFirstSlice {
        state.withLock { state in
            if case .finished(let response) = state.phase {
                state.phase = .sent
                return .send(response)
            }
            guard register(self) else {
                state.phase = .sent
                return .refused
            }
            suspend()
            state.phase = .suspended
            state.task = task
            return .suspended
        }
    }

    /// Stores the response, and resumes the connection if it is suspended; once: a later call (the handler
    /// finishing after a forced shutdown answer) does nothing. While the task's first slice still runs on the
    /// libmicrohttpd thread, the access handler picks the response up itself
    /// (``afterFirstSlice(task:register:suspend:)``).
    /// Returns whether the connection was suspended (and so registered).
    @discardableResult
    func finish(_ response: HTTPResponse) -> Bool {
        let resume = state.withLock { state in
            switch state.phase {
            case .running:
                state.phase = .finished(response)
                return false
            case .suspended:
                state.phase = .finished(response)
                state.task = nil
                return true
            default:
                return false
            }
        }
        if resume { loop.resumeSoon(connection) }
        return resume
    }

    /// Answers 503 now and cancels the handler's task (shutdown past its grace period). The answer is stored first:
    /// the cancelled handler may end at once on its own thread (an event loop runs it as soon as it is woken), and
    /// its answer (a 500 for the `CancellationError`) must not be the one sent.
    func forceFinish() {
        let task = state.withLock { $0.task }
        finish(RequestPipeline.refusal(.serviceUnavailable, requestID: id))
        task?.cancel()
    }
}
