import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A bare TCP client for what an HTTP client library will not send: malformed requests, idle or slow-drip peers.
///
/// Every blocking socket call runs on its own thread: never on the cooperative pool the server's handlers use, nor on
/// the dispatch global queues (which share its threads on Linux).
final class RawClient: Sendable {
    private let fd: Int32

    /// Connects to 127.0.0.1:`port`; the socket gives up on a read after `readTimeout` seconds.
    init(port: UInt16, readTimeout: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            Glibc.close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends all of `text`; `false` if the peer has gone.
    @discardableResult
    func send(_ text: String) async -> Bool { await send(bytes: Array(text.utf8)) }

    /// Sends all of `bytes`; `false` if the peer has gone.
    @discardableResult
    func send(bytes: [UInt8]) async -> Bool {
        await offPool { [fd] in
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if count <= 0 { return false }
                sent += count
            }
            return true
        }
    }

    /// Reads until the server closes the connection (or the read timeout passes) and returns what arrived.
    func readUntilClosed() async -> (text: String, closed: Bool) {
        await offPool { [fd] in
            var data: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count == 0 { return (String(decoding: data, as: UTF8.self), true) }
                if count < 0 {
                    return (String(decoding: data, as: UTF8.self), errno == ECONNRESET)
                }
                data.append(contentsOf: buffer[..<count])
            }
        }
    }

    /// Whether any byte (or the end of the stream) arrives within `timeout`, without consuming it.
    func waitForData(within timeout: Duration) async -> Bool {
        await offPool { [fd] in
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(
                &entry, 1,
                Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)) > 0
        }
    }

    /// Shuts the connection down (the descriptor is closed on deinit).
    func close() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Closes the sending side only: the request is complete, the answer may still come (an HTTP half-close).
    func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads until a full response head has arrived (or the connection ends) and returns it.
    func readHead() async -> String {
        await offPool { [fd] in
            var data: [UInt8] = []
            var byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) == 1 {
                data.append(byte)
                if data.suffix(4) == [13, 10, 13, 10] { break }
            }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Reads one response, head and `Content-Length` body, leaving the connection open; what arrived if it ends.
    func readResponse() async -> String {
        await offPool { [fd] in
            var data: [UInt8] = []
            var byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) == 1 {
                data.append(byte)
                if data.suffix(4) == [13, 10, 13, 10] { break }
            }
            let head = String(decoding: data, as: UTF8.self).lowercased()
            let length =
                head.components(separatedBy: "\r\n").lazy
                .compactMap {
                    $0.hasPrefix("content-length:") ? Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) : nil
                }
                .first ?? 0
            var body = [UInt8](repeating: 0, count: length)
            var received = 0
            while received < length {
                let count = body[received...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                received += count
            }
            return String(decoding: data + body[..<received], as: UTF8.self)
        }
    }

    /// Sends one byte every `interval` until the server closes the connection; returns how long that took, or `nil`
    /// if it stayed open for `limit`. The interval is the wait of a `poll` on the socket, not a sleep.
    func dripUntilClosed(interval: Duration, limit: Duration) async -> Duration? {
        await offPool { [fd] in
            let clock = ContinuousClock()
            let start = clock.now
            let milliseconds = Int32(
                interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
            while clock.now - start < limit {
                var byte: UInt8 = 120
                if Glibc.send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) != 1 { return clock.now - start }
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&entry, 1, milliseconds) > 0 {
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if count <= 0 { return clock.now - start }
                }
            }
            return nil
        }
    }
}

/// A TCP listener that accepts one connection, reads the request, and closes without answering.
final class DroppingListener: Sendable {
    let port: UInt16
    private let fd: Int32

    init() {
        let (fd, port) = bindLoopbackSocket()
        listen(fd, 16)
        self.fd = fd
        self.port = port
        Thread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)  // close with RST
                setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                close(client)
            }
        }.start()
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}

/// A port on 127.0.0.1 that refuses connections for as long as the value is kept: the socket is bound but never
/// listens, so no other test's server can take the port in the meantime (a port merely found free and released can
/// be).
final class RefusingPort: Sendable {
    let port: UInt16
    private let fd: Int32

    init() {
        (fd, port) = bindLoopbackSocket()
    }

    deinit { close(fd) }
}

/// A TCP socket bound to 127.0.0.1 on a port the kernel picks, and that port.
private func bindLoopbackSocket() -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            _ = bind(fd, $0, length)
            _ = getsockname(fd, $0, &length)
        }
    }
    return (fd, UInt16(bigEndian: address.sin_port))
}

private func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
