import Synchronization

/// One request's state between libmicrohttpd's callbacks and the task running its handler.
///
/// MHD calls the access handler for a connection on one thread at a time, but the handler's task finishes on
/// another, so the state sits behind a `Mutex`. The connection is kept as an address (an integer), turned back into a
/// pointer only by ``resumeConnection(_:)`` in the wrapper.
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
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    init(target: String, connection: UInt, id: String) {
        self.target = target
        self.connection = connection
        self.id = id
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
                return .run(request)
            case .finished(let response):
                state.phase = .sent
                return .send(response)
            case .suspended, .sent:
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

    func markSuspended() { state.withLock { $0.phase = .suspended } }

    func attach(_ task: Task<Void, Never>) { state.withLock { $0.task = task } }

    /// Stores the response and resumes the connection, once: a later call (the handler finishing after a forced
    /// shutdown answer) does nothing.
    func finish(_ response: HTTPResponse) {
        let resume = state.withLock { state in
            guard case .suspended = state.phase else { return false }
            state.phase = .finished(response)
            state.task = nil
            return true
        }
        if resume { resumeConnection(connection) }
    }

    /// Cancels the handler's task and answers 503 now (shutdown past its grace period).
    func forceFinish() {
        let task = state.withLock { $0.task }
        task?.cancel()
        finish(RequestPipeline.refusal(.serviceUnavailable, requestID: id))
    }
}
