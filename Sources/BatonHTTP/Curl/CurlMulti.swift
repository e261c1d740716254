import BatonCore
private import CCurl
import Foundation
import Synchronization

/// libcurl's process-wide initialisation, run once before the first multi handle.
private let curlGlobalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_ALL)) }()

/// A new multi handle keeping at most the configured number of idle connections, for ``CurlMulti`` or ``LoopCurl``.
private func makeMulti(_ configuration: CurlTransport.Configuration) -> UnsafeMutableRawPointer {
    _ = curlGlobalInit
    guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
    _ = baton_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maxCachedConnections)
    return multi
}

/// The one owner of a libcurl multi handle and the dedicated thread that drives it: a ``CurlTransport``'s requests
/// sent from anywhere but an event loop (background work, the CLI, tests; a handler's go to ``LoopCurl``).
///
/// It runs `curl_multi_perform` and `curl_multi_poll`; libcurl's socket interface was measured slower on a thread of
/// its own (docs/reliability-history.md, "Issue 32, fourth pass").
///
/// `@unchecked Sendable` because it holds the `CURLM *`, which Swift cannot check: every curl call on it and on its
/// easy handles happens on the I/O thread this type starts, except `curl_multi_wakeup`, which libcurl documents as
/// callable from any thread. Other threads only append to the `Mutex`-guarded inbox and wake the loop.
final class CurlMulti: @unchecked Sendable {
    enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
    }

    private struct Inbox {
        var commands: [Command] = []
        var stopping = false
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    private let configuration: CurlTransport.Configuration

    init(configuration: CurlTransport.Configuration) {
        multi = makeMulti(configuration)
        self.configuration = configuration
        startNamedThread("baton.curl") { [self] in run() }
    }

    /// Hands a command to the I/O thread and wakes it.
    func submit(_ command: Command) {
        inbox.withLock { $0.commands.append(command) }
        curl_multi_wakeup(multi)
    }

    /// Asks the I/O thread to fail what is running and exit; it frees the handles itself.
    func stop() {
        inbox.withLock { $0.stopping = true }
        curl_multi_wakeup(multi)
    }

    // MARK: - I/O thread

    private func run() {
        let transfers = CurlTransfers(multi: multi, configuration: configuration)
        while true {
            let (commands, stopping) = inbox.withLock { inbox in
                defer { inbox.commands = [] }
                return (inbox.commands, inbox.stopping)
            }
            for command in commands {
                switch command {
                case .start(let transfer): transfers.start(transfer)
                case .cancel(let transfer): transfers.cancel(transfer)
                }
            }
            if stopping {
                transfers.close()
                return
            }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            transfers.finishDone()
            _ = curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }
}

/// The transfers attached to one multi handle, and the easy handles kept for reuse; used only on the thread that
/// drives the multi handle (``CurlMulti``'s own thread, or an event loop's: ``LoopCurl``).
private final class CurlTransfers {
    private let multi: UnsafeMutableRawPointer
    private let configuration: CurlTransport.Configuration
    private var active: [UInt: ActiveTransfer] = [:]
    private var handleOf: [ObjectIdentifier: UInt] = [:]
    private var spare: [UnsafeMutableRawPointer] = []

    init(multi: UnsafeMutableRawPointer, configuration: CurlTransport.Configuration) {
        self.multi = multi
        self.configuration = configuration
    }

    /// Configures an easy handle for `transfer` and adds it to the multi handle (or fails the transfer).
    func start(_ transfer: CurlTransfer) {
        guard transfer.isPending else { return }
        guard let easy = spare.popLast() ?? curl_easy_init() else {
            transfer.complete(.failure(TransportError(.other, detail: "curl_easy_init failed")))
            return
        }
        let prepared = ActiveTransfer(transfer: transfer, easy: easy)
        do {
            try prepared.configure(configuration)
            try check(curl_multi_add_handle(multi, easy))
        } catch {
            prepared.freeHeaderList()
            curl_easy_reset(easy)
            spare.append(easy)
            transfer.complete(.failure(error))
            return
        }
        let address = UInt(bitPattern: easy)
        active[address] = prepared
        handleOf[ObjectIdentifier(transfer)] = address
    }

    /// Detaches `transfer` from its connection and fails it with `CancellationError`.
    func cancel(_ transfer: CurlTransfer) {
        if let address = handleOf[ObjectIdentifier(transfer)] {
            finish(address, .failure(CancellationError()))
        } else {
            transfer.complete(.failure(CancellationError()))
        }
    }

    /// Completes the transfers libcurl reports done.
    func finishDone() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = baton_curl_message_result(message)
            let address = UInt(bitPattern: easy)
            guard let transfer = active[address] else { continue }
            finish(address, transfer.outcome(code))
        }
    }

    /// Fails what is running, frees every handle and the multi handle.
    func close() {
        for address in Array(active.keys) {
            finish(address, .failure(TransportError(.other, detail: "transport closed")))
        }
        for easy in spare { curl_easy_cleanup(easy) }
        spare = []
        curl_multi_cleanup(multi)
    }

    private func finish(_ address: UInt, _ result: Result<OutboundResponse, any Error>) {
        guard let transfer = active.removeValue(forKey: address) else { return }
        handleOf[ObjectIdentifier(transfer.transfer)] = nil
        curl_multi_remove_handle(multi, transfer.easy)
        transfer.freeHeaderList()
        curl_easy_reset(transfer.easy)
        if spare.count < configuration.maxCachedConnections {
            spare.append(transfer.easy)
        } else {
            curl_easy_cleanup(transfer.easy)
        }
        transfer.transfer.complete(result)
    }
}

/// A ``CurlTransport``'s transfers started on an event loop's thread, driven by that loop (an
/// ``EventLoopAttachment``) through libcurl's socket interface: libcurl says through its socket and timer callbacks
/// which sockets to watch and when it is due, the sockets wait in one epoll set whose descriptor is in the loop's
/// `poll`, and each readiness is handed to the transfer on that socket alone. A handler's provider call then wakes no
/// other thread: the loop sends the request, sleeps, and wakes on the answer itself.
///
/// `@unchecked Sendable` because it holds the `CURLM *` and the epoll set: every call on them happens on the loop's
/// thread (``EventLoopAttachment``'s contract; cancellation is handed over with ``EventLoop/execute(_:)``).
final class LoopCurl: EventLoopAttachment, @unchecked Sendable {
    private let multi: UnsafeMutableRawPointer
    private let watch: SocketWatch
    private let transfers: CurlTransfers
    private var events = [epoll_event](repeating: epoll_event(), count: 64)
    private var closed = false

    init(configuration: CurlTransport.Configuration) {
        let multi = makeMulti(configuration)
        self.multi = multi
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epoll >= 0, "epoll_create1 failed: out of descriptors")
        watch = SocketWatch(multi: multi, epoll: epoll)
        transfers = CurlTransfers(multi: multi, configuration: configuration)
        let context = Unmanaged.passUnretained(watch).toOpaque()
        _ = baton_curl_multi_setopt_socket_function(multi, watchSocket)
        _ = baton_curl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
        _ = baton_curl_multi_setopt_timer_function(multi, watchTimer)
        _ = baton_curl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context)
    }

    /// Starts `transfer` at once: a reused connection has the request written before this returns.
    func start(_ transfer: CurlTransfer) {
        guard !closed else {
            transfer.complete(.failure(TransportError(.other, detail: "transport closed")))
            return
        }
        transfers.start(transfer)
        runDue()
    }

    func cancel(_ transfer: CurlTransfer) {
        guard !closed else { return }
        transfers.cancel(transfer)
    }

    var fileDescriptor: Int32 { watch.epoll }

    func timeout() -> Int32 { closed ? -1 : watch.millisecondsUntilDue() }

    func run() {
        guard !closed else { return }
        var running: Int32 = 0
        let count = epoll_wait(watch.epoll, &events, Int32(events.count), 0)
        for index in 0..<max(0, Int(count)) {
            let event = events[index]
            var action: Int32 = 0
            if event.events & (EPOLLIN.rawValue | EPOLLHUP.rawValue) != 0 { action |= CURL_CSELECT_IN }
            if event.events & EPOLLOUT.rawValue != 0 { action |= CURL_CSELECT_OUT }
            if event.events & EPOLLERR.rawValue != 0 { action |= CURL_CSELECT_ERR }
            _ = curl_multi_socket_action(multi, event.data.fd, action, &running)
        }
        runDue()
    }

    func detached() {
        guard !closed else { return }
        closed = true
        transfers.close()
        close(watch.epoll)
    }

    /// Hands libcurl its timeout if it has come, then completes what finished.
    private func runDue() {
        var running: Int32 = 0
        if watch.takeIfDue() { _ = curl_multi_socket_action(multi, baton_curl_socket_timeout, 0, &running) }
        transfers.finishDone()
    }
}

/// What libcurl's socket and timer callbacks reach through their user pointer: the epoll set of the sockets libcurl
/// wants watched, and when libcurl is next due. Touched only on the thread that drives the multi handle (libcurl calls
/// back from the `curl_multi_*` calls made there).
private final class SocketWatch {
    let multi: UnsafeMutableRawPointer
    let epoll: Int32
    /// When libcurl asked to be called with `CURL_SOCKET_TIMEOUT` (monotonic nanoseconds), or `nil` for never.
    private var due: Int64?

    init(multi: UnsafeMutableRawPointer, epoll: Int32) {
        self.multi = multi
        self.epoll = epoll
    }

    /// `CURLMOPT_SOCKETFUNCTION`: watch `socket` for what libcurl waits on, or stop watching it.
    func update(_ socket: curl_socket_t, what: Int32, watched: Bool) {
        guard what != CURL_POLL_REMOVE else {
            // The socket may already be closed, which removed it from the set: the error is expected then.
            _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
            return
        }
        var event = epoll_event()
        event.events =
            (what & CURL_POLL_IN != 0 ? EPOLLIN.rawValue : 0) | (what & CURL_POLL_OUT != 0 ? EPOLLOUT.rawValue : 0)
        event.data.fd = socket
        // libcurl keeps a pointer per socket (`curl_multi_assign`) until it removes the socket: set once the socket is
        // in the set, so a later change is a modification. A descriptor closed and reused behind libcurl's back is
        // covered by trying the other operation.
        let first = watched ? EPOLL_CTL_MOD : EPOLL_CTL_ADD
        if epoll_ctl(epoll, first, socket, &event) != 0 {
            _ = epoll_ctl(epoll, first == EPOLL_CTL_ADD ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, socket, &event)
        }
        if !watched { curl_multi_assign(multi, socket, Unmanaged.passUnretained(self).toOpaque()) }
    }

    /// `CURLMOPT_TIMERFUNCTION`: libcurl is due in `milliseconds` (0: at once), or never (-1).
    func setTimer(_ milliseconds: Int) {
        due = milliseconds < 0 ? nil : MonotonicTime.nanoseconds() + Int64(milliseconds) * 1_000_000
    }

    /// Whether libcurl's timer has expired; clears it (libcurl sets it again from the call that follows if needed).
    func takeIfDue() -> Bool {
        guard let due, due <= MonotonicTime.nanoseconds() else { return false }
        self.due = nil
        return true
    }

    /// The wait before libcurl's timer expires, rounded up, for `poll` (-1: no timer).
    func millisecondsUntilDue() -> Int32 {
        guard let due else { return -1 }
        let left = due - MonotonicTime.nanoseconds()
        return left <= 0 ? 0 : Int32(clamping: (left + 999_999) / 1_000_000)
    }
}

/// libcurl's socket callback (a global function: a capturing closure cannot be a C function pointer).
private func watchSocket(
    _ easy: UnsafeMutableRawPointer?, _ socket: curl_socket_t, _ what: Int32, _ user: UnsafeMutableRawPointer?,
    _ socketData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let user else { return -1 }
    Unmanaged<SocketWatch>.fromOpaque(user).takeUnretainedValue().update(socket, what: what, watched: socketData != nil)
    return 0
}

/// libcurl's timer callback.
private func watchTimer(
    _ multi: UnsafeMutableRawPointer?, _ milliseconds: Int, _ user: UnsafeMutableRawPointer?
) -> Int32 {
    guard let user else { return -1 }
    Unmanaged<SocketWatch>.fromOpaque(user).takeUnretainedValue().setTimer(milliseconds)
    return 0
}

/// One request while its easy handle is attached to the multi handle; touched only on the I/O thread.
private final class ActiveTransfer {
    let transfer: CurlTransfer
    let easy: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var resolveList: UnsafeMutablePointer<curl_slist>?
    private var connectToList: UnsafeMutablePointer<curl_slist>?
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    var maxBodyBytes = Int.max
    var bodyTooLarge = false

    init(transfer: CurlTransfer, easy: UnsafeMutableRawPointer) {
        self.transfer = transfer
        self.easy = easy
    }

    func configure(_ configuration: CurlTransport.Configuration) throws(TransportError) {
        let request = transfer.request
        let me = Unmanaged.passUnretained(self).toOpaque()
        maxBodyBytes = configuration.maxResponseBytes
        let timeout = max(
            1,
            Int(
                request.timeout.components.seconds * 1000 + request.timeout.components.attoseconds
                    / 1_000_000_000_000_000))
        try check(baton_curl_setopt_pointer(easy, CURLOPT_URL, request.url))
        try check(baton_curl_setopt_pointer(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        // Set on every request (easy handles are reused): an empty proxy means none, even when the environment
        // names one.
        try check(
            baton_curl_setopt_pointer(
                easy, CURLOPT_PROXY, request.pinnedAddresses.isEmpty ? configuration.proxy : ""))
        try check(baton_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        try check(baton_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeout))
        try check(
            baton_curl_setopt_long(
                easy, CURLOPT_CONNECTTIMEOUT_MS, min(timeout, configuration.connectTimeoutMilliseconds)))
        try check(baton_curl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, receiveBody))
        try check(baton_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, me))
        try check(baton_curl_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, receiveHeader))
        try check(baton_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, me))

        switch request.method {
        case .get where request.body.isEmpty:
            try check(baton_curl_setopt_long(easy, CURLOPT_HTTPGET, 1))
        case .head:
            try check(baton_curl_setopt_long(easy, CURLOPT_NOBODY, 1))
        default:
            if !request.body.isEmpty || request.method == .post || request.method == .put || request.method == .patch {
                try check(baton_curl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
                let copied = request.body.withUnsafeBytes { bytes in
                    let empty: StaticString = ""
                    return baton_curl_setopt_pointer(
                        easy, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(empty.utf8Start))
                }
                try check(copied)
            }
            if request.method != .post {
                try check(baton_curl_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, request.method.rawValue))
            }
        }

        var list: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Expect:")
        for field in request.headers {
            list = curl_slist_append(list, "\(field.name): \(field.value)")
        }
        headerList = list
        try check(baton_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, list))

        if !request.pinnedAddresses.isEmpty {
            guard let parts = RawURLComponents(request.url), let port = parts.effectivePort else {
                throw TransportError(.other, detail: "cannot pin the addresses of this URL")
            }
            let addresses = request.pinnedAddresses.map { $0.contains(":") ? "[\($0)]" : $0 }
            resolveList = curl_slist_append(nil, "\(parts.host):\(port):\(addresses.joined(separator: ","))")
            try check(baton_curl_setopt_pointer(easy, CURLOPT_RESOLVE, resolveList))
        }
        if let caFile = configuration.caFile {
            try check(baton_curl_setopt_pointer(easy, CURLOPT_CAINFO, caFile))
        }
        if let connectTo = request.connectTo {
            guard let parts = RawURLComponents(request.url), let port = parts.effectivePort else {
                throw TransportError(.other, detail: "cannot redirect the connection of this URL")
            }
            connectToList = curl_slist_append(nil, "\(parts.host):\(port):\(connectTo)")
            try check(baton_curl_setopt_pointer(easy, CURLOPT_CONNECT_TO, connectToList))
        }
    }

    func freeHeaderList() {
        curl_slist_free_all(headerList)
        headerList = nil
        curl_slist_free_all(resolveList)
        resolveList = nil
        curl_slist_free_all(connectToList)
        connectToList = nil
    }

    func outcome(_ code: CURLcode) -> Result<OutboundResponse, any Error> {
        if bodyTooLarge {
            return .failure(TransportError(.responseTooLarge, detail: "response body over the configured limit"))
        }
        guard code == CURLE_OK else { return .failure(transportError(code)) }
        var status = 0
        _ = baton_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return .success(OutboundResponse(status: status, headers: headers, body: body))
    }
}

/// `CURLOPT_WRITEFUNCTION`: appends body bytes; returning less than offered aborts an oversized response.
private func receiveBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<ActiveTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard transfer.body.count + length <= transfer.maxBodyBytes else {
        transfer.bodyTooLarge = true
        return 0
    }
    transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
    return length
}

/// `CURLOPT_HEADERFUNCTION`: one header line at a time; a new status line (after a 100 or a redirect) starts over.
private func receiveHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<ActiveTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = UnsafeRawBufferPointer(start: data, count: length)
    if line.starts(with: "HTTP/".utf8) {
        transfer.headers = HTTPHeaders()
    } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
        let name = trimmed(line[..<colon])
        let value = trimmed(line[(colon + 1)...])
        if !name.isEmpty {
            transfer.headers.add(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
    }
    return length
}

/// `bytes` without leading and trailing spaces, tabs, CR and LF (a header line arrives with its CRLF).
private func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
    let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return bytes[bytes.startIndex..<bytes.startIndex] }
    return bytes[first...last]
}

/// The one place a curl easy-handle result code becomes a typed error.
private func check(_ code: CURLcode) throws(TransportError) {
    guard code == CURLE_OK else { throw transportError(code) }
}

/// The one place a curl multi-handle result code becomes a typed error.
private func check(_ code: CURLMcode) throws(TransportError) {
    guard code == CURLM_OK else {
        throw TransportError(.other, detail: String(cString: curl_multi_strerror(code)))
    }
}

private func transportError(_ code: CURLcode) -> TransportError {
    let detail = "curl: " + String(cString: curl_easy_strerror(code))
    switch code {
    case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
        return TransportError(.connectFailed, detail: detail)
    case CURLE_OPERATION_TIMEDOUT:
        return TransportError(.timedOut, detail: detail)
    case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
        CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ISSUER_ERROR,
        CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED:
        return TransportError(.tls, detail: detail)
    case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
        return TransportError(.connectionReset, detail: detail)
    default:
        return TransportError(.other, detail: detail)
    }
}
