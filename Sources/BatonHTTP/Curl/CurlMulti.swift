import BatonCore
private import CCurl
import Foundation
import Synchronization

/// libcurl's process-wide initialisation, run once before the first multi handle.
private let curlGlobalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_ALL)) }()

/// The one owner of a libcurl multi handle and the dedicated thread that drives it.
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
        _ = curlGlobalInit
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        self.multi = multi
        self.configuration = configuration
        _ = baton_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maxCachedConnections)
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
        var active: [UInt: ActiveTransfer] = [:]
        var handleOf: [ObjectIdentifier: UInt] = [:]
        var spare: [UnsafeMutableRawPointer] = []

        func finish(_ address: UInt, _ result: Result<OutboundResponse, any Error>) {
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

        while true {
            let (commands, stopping) = inbox.withLock { inbox in
                defer { inbox.commands = [] }
                return (inbox.commands, inbox.stopping)
            }
            for command in commands {
                switch command {
                case .start(let transfer):
                    guard transfer.isPending else { continue }
                    guard let easy = spare.popLast() ?? curl_easy_init() else {
                        transfer.complete(.failure(TransportError(.other, detail: "curl_easy_init failed")))
                        continue
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
                        continue
                    }
                    let address = UInt(bitPattern: easy)
                    active[address] = prepared
                    handleOf[ObjectIdentifier(transfer)] = address
                case .cancel(let transfer):
                    if let address = handleOf[ObjectIdentifier(transfer)] {
                        finish(address, .failure(CancellationError()))
                    } else {
                        transfer.complete(.failure(CancellationError()))
                    }
                }
            }
            if stopping {
                for address in Array(active.keys) {
                    finish(address, .failure(TransportError(.other, detail: "transport closed")))
                }
                for easy in spare { curl_easy_cleanup(easy) }
                curl_multi_cleanup(multi)
                return
            }

            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = baton_curl_message_result(message)
                let address = UInt(bitPattern: easy)
                guard let transfer = active[address] else { continue }
                finish(address, transfer.outcome(code))
            }
            _ = curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }
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
