private import CMicroHTTPD
import Foundation
import Synchronization

/// The one owner of the libmicrohttpd daemons of a server: starts them, answers their callbacks, quiesces and stops
/// them.
///
/// There is one daemon per ``EventLoop``, in external-poll mode, all accepting from one listening socket opened here
/// (each daemon owns a duplicate of it); each daemon is only ever run on its loop's thread (quiescing included), and
/// a loop at its share of `maxConnections` stops polling the socket, so the others (or the backlog) take the next
/// connection, as libmicrohttpd's own thread pool does.
///
/// `@unchecked Sendable` because it holds the `MHD_Daemon *`s, which Swift cannot check: they are immutable after
/// `init`, only ever called on their loop's thread (a resumed connection is handed to the loop: external-poll
/// libmicrohttpd has no wake-up of its own), and stopped only once that thread has exited. Everything mutable lives
/// behind a `Mutex` in ``InFlightRequests`` and ``RequestContext``.
final class MicroHTTPDaemon: @unchecked Sendable {
    let core: DaemonCore
    let port: UInt16
    private let daemons: [OpaquePointer]
    /// The callbacks' `cls` of each daemon (kept alive here).
    private let workers: [DaemonWorker]
    private let stopped = Mutex(false)

    init(configuration: HTTPServerConfiguration, pipeline: RequestPipeline) throws(HTTPServerError) {
        let core = DaemonCore(configuration: configuration, pipeline: pipeline)
        let limits = configuration.limits
        let maxConnections = max(1, limits.maxConnections)
        let loops = min(max(1, configuration.threadPoolSize), maxConnections)
        let listenSocket = baton_listen_socket(
            configuration.host, configuration.port, Int32(clamping: max(1, limits.listenBacklog)))
        guard listenSocket >= 0 else { throw Self.startFailed(configuration) }
        // Each daemon owns a duplicate of the socket (closed by libmicrohttpd when it stops, or by ``quiesce()``):
        // the socket closes with the last of them, and no daemon can close a descriptor another still uses.
        defer { close(listenSocket) }
        var daemons: [OpaquePointer] = []
        var workers: [DaemonWorker] = []
        for index in 0..<loops {
            let worker = DaemonWorker(core: core, loop: EventLoop(name: "baton.http.\(index)"))
            // Each loop holds its share of the limit, the first ones one more, as libmicrohttpd's pool divides it.
            let share = maxConnections / loops + (index < maxConnections % loops ? 1 : 0)
            let socket = fcntl(listenSocket, F_DUPFD_CLOEXEC, 0)
            guard socket >= 0, let started = Self.start(configuration, worker, listenSocket: socket, share: share)
            else {
                if socket >= 0 { close(socket) }
                for daemon in daemons { MHD_stop_daemon(daemon) }
                throw Self.startFailed(configuration)
            }
            daemons.append(started)
            workers.append(worker)
        }
        self.daemons = daemons
        self.workers = workers
        self.core = core
        self.port = baton_socket_port(listenSocket)
        for (daemon, worker) in zip(daemons, workers) {
            let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(daemon)))
            worker.loop.start(
                EventLoop.Source(
                    fileDescriptor: baton_mhd_epoll_fd(daemon),
                    timeout: {
                        // A connection closed in the last run may have taken the daemon below its connection limit:
                        // it polls the listening socket again only from its next run.
                        if worker.connectionClosed.exchange(false, ordering: .relaxed) { return 0 }
                        return Int32(clamping: baton_mhd_timeout_ms(Self.daemon(at: address)))
                    },
                    run: { resumed in
                        for connection in resumed { resumeConnection(connection) }
                        _ = MHD_run(Self.daemon(at: address))
                    }))
        }
        core.headerDeadlines.startWatchdog { deadlines in
            // The socket stays libmicrohttpd's: shutting it down makes its next read see the end of the stream, and
            // libmicrohttpd closes the connection the usual way.
            deadlines.cutExpired(millisecondsSinceData: { Int64(baton_tcp_ms_since_data_received($0)) }) { socket in
                _ = shutdown(socket, Int32(SHUT_RDWR))
            }
        }
    }

    deinit {
        // Normally `shutdown(grace:)` has already stopped the daemon; this only covers a server that was dropped.
        core.inFlight.forceFinishAll()
        stopNow()
    }

    /// Stops accepting new connections; open connections keep being served. Blocks until every daemon has stopped
    /// polling the socket: never call it on the cooperative pool or on a loop.
    func quiesce() {
        for (daemon, worker) in zip(daemons, workers) {
            let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(daemon)))
            let done = DispatchSemaphore(value: 0)
            Task(executorPreference: worker.loop) {
                let socket = MHD_quiesce_daemon(Self.daemon(at: address))
                if socket >= 0 { close(socket) }
                done.signal()
            }
            done.wait()
        }
    }

    /// Stops the daemons and closes every connection. Blocks while the loops' threads join: never call it on the
    /// cooperative pool (``HTTPServer`` calls it on its own thread).
    func stopNow() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        for worker in workers { worker.loop.stopAndWait() }
        for daemon in daemons { MHD_stop_daemon(daemon) }
        core.headerDeadlines.stop()
    }

    private static func daemon(at address: UInt) -> OpaquePointer {
        OpaquePointer(bitPattern: address).unsafelyUnwrapped
    }

    /// Starts one external-poll daemon on `listenSocket` (which it then owns), holding `share` connections at most.
    private static func start(
        _ configuration: HTTPServerConfiguration, _ worker: DaemonWorker, listenSocket: Int32, share: Int
    ) -> OpaquePointer? {
        let limits = configuration.limits
        let flags =
            MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue | MHD_USE_TURBO.rawValue
        let timeoutSeconds = max(1, limits.idleTimeout.components.seconds)
        let cls = Unmanaged.passUnretained(worker).toOpaque()
        return baton_mhd_start(
            flags, configuration.host, listenSocket,
            accessHandler, cls, requestCompleted, cls, requestStarted, cls, connectionNotified, cls,
            max(4096, limits.connectionMemoryBytes), UInt32(clamping: max(1, share)), UInt32(clamping: timeoutSeconds),
            configuration.strictParsing ? 1 : 0)
    }

    private static func startFailed(_ configuration: HTTPServerConfiguration) -> HTTPServerError {
        HTTPServerError(
            code: "start_failed",
            reason: "libmicrohttpd could not listen on \(configuration.host):\(configuration.port)")
    }
}

/// What a daemon's C callbacks reach through their `cls` pointer: the server's core, and the event loop whose thread
/// runs that daemon.
final class DaemonWorker: Sendable {
    let core: DaemonCore
    let loop: EventLoop
    /// A connection of this daemon closed since its loop last asked (see ``MicroHTTPDaemon``'s source).
    let connectionClosed = Atomic(false)

    init(core: DaemonCore, loop: EventLoop) {
        self.core = core
        self.loop = loop
    }
}

/// The Swift side of a server, shared by its daemons' callbacks.
final class DaemonCore: Sendable {
    let configuration: HTTPServerConfiguration
    let pipeline: RequestPipeline
    let inFlight = InFlightRequests()
    let headerDeadlines: HeaderDeadlines

    init(configuration: HTTPServerConfiguration, pipeline: RequestPipeline) {
        self.configuration = configuration
        self.pipeline = pipeline
        let limits = configuration.limits
        self.headerDeadlines = HeaderDeadlines(
            timeout: limits.headerTimeout, perAddressLimit: limits.maxConnectionsPerAddress,
            exemptsLoopback: limits.exemptsLoopbackFromAddressLimit)
    }
}

// MARK: - C callbacks (global functions: a capturing closure cannot be a C function pointer)

/// `MHD_OPTION_URI_LOG_CALLBACK`: called once per request with the raw target; creates the request's context.
private func requestStarted(
    _ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    guard let cls, let connection else { return nil }
    let worker = Unmanaged<DaemonWorker>.fromOpaque(cls).takeUnretainedValue()
    let core = worker.core
    let target = uri.map { String(cString: $0) } ?? "/"
    let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    if let open = openConnection(connection) { core.headerDeadlines.requestStarted(open) }
    let context = RequestContext(
        target: target, connection: address, id: core.configuration.makeRequestID(), loop: worker.loop)
    core.inFlight.began()
    return Unmanaged.passRetained(context).toOpaque()
}

/// `MHD_OPTION_NOTIFY_CONNECTION`: a connection was accepted or is closing (its socket is still open either way).
/// The connection's ``OpenConnection`` (header deadline, peer address) lives in its socket context from the one call
/// to the other.
private func connectionNotified(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let worker = Unmanaged<DaemonWorker>.fromOpaque(cls).takeUnretainedValue()
    let deadlines = worker.core.headerDeadlines
    if code == .CONNECTION_NOTIFY_STARTED {
        let remote = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> String? in
            guard let base = buffer.baseAddress, baton_mhd_client_address(connection, base, 64) == 0 else { return nil }
            return String(cString: base)
        }
        let socket = baton_mhd_connection_fd(connection)
        let open = deadlines.opened(socket: socket, remoteAddress: remote)
        socketContext.pointee = Unmanaged.passRetained(open).toOpaque()
        // One connection too many from its address: libmicrohttpd reads the end of the stream and closes it.
        if open.isOverLimit { _ = shutdown(socket, Int32(SHUT_RDWR)) }
    } else if let raw = socketContext.pointee {
        worker.connectionClosed.store(true, ordering: .relaxed)
        socketContext.pointee = nil
        let open = Unmanaged<OpenConnection>.fromOpaque(raw)
        deadlines.closed(open.takeUnretainedValue())
        open.release()
    }
}

/// The per-connection state ``connectionNotified`` keeps in the connection's socket context.
private func openConnection(_ connection: OpaquePointer) -> OpenConnection? {
    baton_mhd_socket_context(connection).map { Unmanaged<OpenConnection>.fromOpaque($0).takeUnretainedValue() }
}

/// `MHD_OPTION_NOTIFY_COMPLETED`: the response was sent (or the connection failed); frees the context.
private func requestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ contextSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ reason: MHD_RequestTerminationCode
) {
    guard let cls, let contextSlot, let pointer = contextSlot.pointee else { return }
    contextSlot.pointee = nil
    Unmanaged<RequestContext>.fromOpaque(pointer).release()
    let core = Unmanaged<DaemonWorker>.fromOpaque(cls).takeUnretainedValue().core
    if let connection, let open = openConnection(connection) { core.headerDeadlines.requestCompleted(open) }
    core.inFlight.ended()
}

/// The access handler: read headers, accumulate the body within bounds, then run the Swift handler in a task.
///
/// The task is started with `Task.immediate`, so it runs here, on the loop that read the request, until its first
/// suspension. A handler that answers without suspending (`/healthz`, a 404, a cached catalog) has its response
/// queued at once: no suspend/resume. A handler that awaits returns control here at its first suspension and the
/// connection is suspended; the task prefers the loop as its executor, so every continuation (the store's, libcurl's)
/// runs on this same thread, and when the task finishes the loop resumes the connection, MHD calls back here and the
/// stored response is queued. No loop waits on Swift work. The cost: CPU work a handler does holds its loop's other
/// connections for as long (Baton's routes do tens of microseconds of it between their store and provider calls).
private func accessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ contextSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let uploadDataSize, let pointer = contextSlot?.pointee else { return .NO }
    let worker = Unmanaged<DaemonWorker>.fromOpaque(cls).takeUnretainedValue()
    let core = worker.core
    let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue()
    let limits = core.configuration.limits

    switch context.nextStep(uploadBytes: uploadDataSize.pointee) {
    case .readHeaders:
        if let open = openConnection(connection) { core.headerDeadlines.headersComplete(open) }
        if let framing = framingRefusal(context, url: url, version: version) {
            context.markRefused()
            return refuse(framing.error, context, on: connection, core: core, closing: true)
        }
        switch readHeaders(connection, context, method: method, limits: limits) {
        case .success: return .YES
        case .failure(let refusal):
            context.markRefused()
            return refuse(refusal.error, context, on: connection, core: core, closing: refusal.closes)
        }
    case .appendBody:
        let count = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        if context.bodyDeadlinePassed(limits.bodyTimeout) { return .NO }
        if let uploadData {
            let bytes = UnsafeRawBufferPointer(start: uploadData, count: count)
            context.appendBody(bytes, limit: limits.maxBodyBytes)
        }
        return .YES
    case .run(let request):
        if core.inFlight.isForced {
            context.markRefused()
            return refuse(.serviceUnavailable, context, on: connection, core: core)
        }
        let pipeline = core.pipeline
        let task = Task.immediate(executorPreference: worker.loop) {
            let response = await pipeline.respond(to: request)
            if context.finish(response) { core.inFlight.unregister(context) }
        }
        let suspend = { MHD_suspend_connection(connection) }
        switch context.afterFirstSlice(task: task, register: core.inFlight.register, suspend: suspend) {
        case .send(let response):
            return queue(response, on: connection, core: core)
        case .suspended:
            return .YES
        case .refused:
            task.cancel()
            return refuse(.serviceUnavailable, context, on: connection, core: core)
        }
    case .refuse(let error):
        return refuse(error, context, on: connection, core: core)
    case .send(let response):
        return queue(response, on: connection, core: core)
    case .nothing:
        return .YES
    }
}

/// Why ``readHeaders`` refuses a request: the answer, and whether the connection must close after it.
private struct HeaderRefusal: Error {
    let error: HTTPError
    let closes: Bool
}

/// The target checks, before anything else is read: origin-form, and no NUL cut off by libmicrohttpd.
///
/// libmicrohttpd parses the request line in place: the target runs from `url` up to the space before `version`
/// (which it finds from the end of the line), while the URI callback's C string (``RequestContext/target``) stops at
/// the first NUL. A target shorter than that span had a NUL in it: `GET /healthz\0x` would otherwise be routed to
/// `/healthz`. (A target that is not valid UTF-8 is longer once repaired, and refused the same way.)
private func framingRefusal(
    _ context: RequestContext, url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?
) -> RequestFraming.Refusal? {
    guard RequestFraming.isOriginForm(context.target), let url, let version else { return .targetNotOriginForm }
    let span = Int(bitPattern: version) &- Int(bitPattern: url) &- 1
    return span == context.target.utf8.count ? nil : .targetNotOriginForm
}

/// First call: method, headers, peer address, and the limits that can be judged before any body arrives.
private func readHeaders(
    _ connection: OpaquePointer, _ context: RequestContext, method: UnsafePointer<CChar>?, limits: HTTPServerLimits
) -> Result<Void, HeaderRefusal> {
    if context.target.utf8.count > limits.maxURLBytes {
        return .failure(HeaderRefusal(error: .uriTooLong, closes: false))
    }
    var collector = HeaderCollector()
    collector.headers.reserveCapacity(16)
    withUnsafeMutablePointer(to: &collector) { pointer in
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeader, pointer)
    }
    let headers = collector.headers
    if headers.count > limits.maxHeaderCount {
        return .failure(HeaderRefusal(error: .headerFieldsTooLarge, closes: false))
    }
    if collector.isMalformed {
        return .failure(HeaderRefusal(error: RequestFraming.Refusal.invalidFieldCharacter.error, closes: true))
    }
    if let framing = RequestFraming.refusal(for: headers) {
        return .failure(HeaderRefusal(error: framing.error, closes: true))
    }
    var discardBody = false
    if let length = headers["content-length"], let declared = Int(length), declared > limits.maxBodyBytes {
        // A client that waits for 100 Continue, or a body not worth reading, gets the 413 before sending it; any
        // other client is sending it now, and closing under it would reset the connection before it reads the 413.
        let waitsForContinue = headers["expect"]?.lowercased() == "100-continue"
        if waitsForContinue || declared > limits.maxDiscardedBodyBytes {
            return .failure(HeaderRefusal(error: .payloadTooLarge, closes: false))
        }
        discardBody = true
    }
    let remote = openConnection(connection)?.remoteAddress
    let methodName = method.map { String(cString: $0) } ?? "GET"
    context.headersRead(
        method: HTTPMethod(methodName), headers: headers, remoteAddress: remote, discardBody: discardBody)
    return .success(())
}

/// The fields ``collectHeader`` gathers, and whether any of them holds a byte a field must not.
private struct HeaderCollector {
    var headers = HTTPHeaders()
    var isMalformed = false
}

/// Appends one field to the ``HeaderCollector`` that `cls` points to (on the stack of ``readHeaders``).
private func collectHeader(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let collector = cls.assumingMemoryBound(to: HeaderCollector.self)
    let nameBytes = UnsafeRawBufferPointer(start: key, count: keySize)
    let valueBytes = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize)
    if RequestFraming.hasInvalidFieldByte(nameBytes, isName: true)
        || RequestFraming.hasInvalidFieldByte(valueBytes, isName: false) || !isOneLine(key, keySize, value)
    {
        collector.pointee.isMalformed = true
    }
    let name = String(decoding: nameBytes, as: UTF8.self)
    collector.pointee.headers.add(name, String(decoding: valueBytes, as: UTF8.self))
    return .YES
}

/// Whether a field's name and value are still where libmicrohttpd parsed them from one line: the name, the colon
/// (overwritten with NUL), optional spaces or tabs, the value.
///
/// libmicrohttpd 0.9.75 mishandles obs-fold (a field line continued by a line starting with a space): it appends the
/// continuation to the field's *name*, moving the name elsewhere in its memory pool (`X-A: a` + ` b` arrives as
/// `X-Ab: a`), which would let a folded line change which field a request carries. RFC 9112 §5.2 lets a server
/// refuse obs-fold with 400; a name no longer right before its value is how it shows here. The bytes read lie between
/// two pointers into the same line of libmicrohttpd's read buffer, and at most 256 apart.
private func isOneLine(_ key: UnsafePointer<CChar>, _ keySize: Int, _ value: UnsafePointer<CChar>?) -> Bool {
    guard let value else { return false }
    let gap = Int(bitPattern: value) &- Int(bitPattern: key) &- keySize
    guard (1...256).contains(gap) else { return false }
    let between = UnsafeRawBufferPointer(start: key + keySize, count: gap)
    return between[0] == 0 && between.dropFirst().allSatisfy { $0 == 0x20 || $0 == 0x09 }
}

/// Queues the refusal `error` renders as, carrying the request's id; only from inside the access handler.
private func refuse(
    _ error: HTTPError, _ context: RequestContext, on connection: OpaquePointer, core: DaemonCore,
    closing: Bool = false
) -> MHD_Result {
    queue(RequestPipeline.refusal(error, requestID: context.id), on: connection, core: core, closing: closing)
}

/// Queues `response` on `connection`; only ever called from inside the access handler.
private func queue(
    _ response: HTTPResponse, on connection: OpaquePointer, core: DaemonCore, closing: Bool = false
) -> MHD_Result {
    let created = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let created else { return .NO }
    defer { MHD_destroy_response(created) }
    for field in response.headers where !HTTPHeaders.equalNames(field.name, "content-length") {
        // MHD refuses names or values with CR/LF, which keeps header injection out; such a field is dropped.
        // (`withCString` passes a short string from the stack; the implicit conversion would copy it to the heap.)
        _ = field.name.withCString { name in field.value.withCString { MHD_add_response_header(created, name, $0) } }
    }
    if closing || core.inFlight.isShuttingDown || response.status == 413 {
        _ = MHD_add_response_header(created, "connection", "close")
    }
    return MHD_queue_response(connection, UInt32(clamping: response.status), created)
}

/// Resumes a connection suspended by the access handler; only on its daemon's loop thread (``RequestContext`` hands
/// it to the loop).
func resumeConnection(_ address: UInt) {
    guard let raw = UnsafeMutableRawPointer(bitPattern: address) else { return }
    MHD_resume_connection(OpaquePointer(raw))
}
