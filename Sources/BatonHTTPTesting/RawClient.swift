import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A bare TCP client for what an HTTP client library will not send: malformed requests, idle or slow-drip peers.
///
/// Every blocking socket call runs on its own thread: never on the cooperative pool the server's handlers use, nor on
/// the dispatch global queues (which share its threads on Linux).
public final class RawClient: Sendable {
    private let fd: Int32

    /// Connects to 127.0.0.1:`port`; the socket gives up on a read after `readTimeout` seconds.
    public init(port: UInt16, readTimeout: Int = 10) throws {
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
    public func send(_ text: String) async -> Bool { await send(bytes: Array(text.utf8)) }

    /// Sends all of `bytes`; `false` if the peer has gone.
    @discardableResult
    public func send(bytes: [UInt8]) async -> Bool {
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
    public func readUntilClosed() async -> (text: String, closed: Bool) {
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
    public func waitForData(within timeout: Duration) async -> Bool {
        await offPool { [fd] in
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(
                &entry, 1,
                Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)) > 0
        }
    }

    /// Shuts the connection down (the descriptor is closed on deinit).
    public func close() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Closes the sending side only: the request is complete, the answer may still come (an HTTP half-close).
    public func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads until a full response head has arrived (or the connection ends) and returns it.
    public func readHead() async -> String {
        await offPool { [fd] in String(decoding: Self.headBytes(fd), as: UTF8.self) }
    }

    /// Reads byte by byte up to and including the blank line that ends a response head (or the connection's end).
    private static func headBytes(_ fd: Int32) -> [UInt8] {
        var data: [UInt8] = []
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, 0) == 1 {
            data.append(byte)
            if data.suffix(4) == [13, 10, 13, 10] { break }
        }
        return data
    }

    /// Reads one response, head and `Content-Length` body, leaving the connection open; what arrived if it ends.
    public func readResponse() async -> String {
        await offPool { [fd] in
            let data = Self.headBytes(fd)
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
    public func dripUntilClosed(interval: Duration, limit: Duration) async -> Duration? {
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

/// Runs `body` on a thread of its own and returns its result: a blocking socket call never holds a cooperative thread.
private func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
