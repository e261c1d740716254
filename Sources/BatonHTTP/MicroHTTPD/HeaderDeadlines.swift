import Foundation
import Synchronization

/// The deadline for each connection's request headers, the count of connections per client address, and the
/// watchdog that cuts off connections past their deadline.
///
/// libmicrohttpd 0.9.75 has only an idle timeout, which every byte resets, so a client dripping its headers one byte
/// at a time would hold a connection forever. A connection's first deadline starts when it is accepted. On a
/// kept-alive connection the next request's deadline starts with its first byte: libmicrohttpd reports nothing
/// before the request line is complete, so after each response the connection is marked as between requests, and the
/// watchdog asks the kernel (`TCP_INFO`) whether data has arrived since; the first check that sees some starts the
/// deadline (at most one check interval after the byte arrived). A complete request line starts it too, whichever
/// comes first. The access handler's first call (headers complete) clears it. An idle kept-alive connection sends
/// nothing and keeps only the idle timeout.
///
/// Each connection has its own ``OpenConnection`` (its deadline one atomic word), kept in libmicrohttpd's socket
/// context, so the per-request updates touch no shared lock; the table of open connections (and the count per
/// address) changes only when one opens or closes. The watchdog cuts a connection with `shutdown` while the table's
/// lock is held: libmicrohttpd reports a connection closed (``closed(_:)``) before it closes the socket, so a
/// descriptor in the table is never one already reused.
final class HeaderDeadlines: Sendable {
    private struct Table {
        var open: [ObjectIdentifier: OpenConnection] = [:]
        var perAddress: [String: Int] = [:]
    }

    /// Bytes received this soon after the previous response count as that request's (the kernel's receive
    /// timestamps are in jiffies, a few milliseconds).
    private static let receiveClockSlackNanoseconds: Int64 = 10_000_000

    private let timeout: Duration
    private let timeoutNanoseconds: Int64
    private let perAddressLimit: Int
    private let exemptsLoopback: Bool
    private let table = Mutex(Table())
    private let stopSignal = DispatchSemaphore(value: 0)
    private let stopped = Atomic(false)

    /// - Parameters:
    ///   - perAddressLimit: most connections open at once from one client address (0: no limit).
    ///   - exemptsLoopback: whether loopback peers (a reverse proxy on this host) are outside that limit.
    init(timeout: Duration, perAddressLimit: Int = 0, exemptsLoopback: Bool = true) {
        self.timeout = timeout
        let (seconds, attoseconds) = timeout.components
        self.timeoutNanoseconds = max(1, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        self.perAddressLimit = max(0, perAddressLimit)
        self.exemptsLoopback = exemptsLoopback
    }

    /// A connection was accepted: its headers are due within the timeout. The caller keeps the returned connection
    /// (in the connection's socket context) and hands it to the other calls; when its ``OpenConnection/isOverLimit``
    /// is set, the caller closes it at once (it still reports it ``closed(_:)``).
    func opened(socket: Int32, remoteAddress: String?) -> OpenConnection {
        let due = MonotonicTime.nanoseconds() + timeoutNanoseconds
        let limited = perAddressLimit > 0 && !(exemptsLoopback && LoopbackAddress.isLoopback(remoteAddress ?? ""))
        // IPv6 peers are counted by their /64 (``ConnectionAddressGroup``).
        let counted = limited ? remoteAddress.map(ConnectionAddressGroup.key(for:)) : nil
        return table.withLock { table in
            var overLimit = false
            if let counted {
                let count = table.perAddress[counted, default: 0] + 1
                table.perAddress[counted] = count
                overLimit = count > perAddressLimit
            }
            let connection = OpenConnection(
                socket: socket, remoteAddress: remoteAddress, countedAddress: counted, overLimit: overLimit, due: due)
            table.open[ObjectIdentifier(connection)] = connection
            return connection
        }
    }

    /// A request line arrived: its headers are due within the timeout, unless a deadline already runs (the one from
    /// the connection's accept, or the one the watchdog started at the request's first byte).
    func requestStarted(_ connection: OpenConnection) {
        if connection.due.load(ordering: .relaxed) <= 0 {
            connection.due.store(MonotonicTime.nanoseconds() + timeoutNanoseconds, ordering: .relaxed)
        }
    }

    /// The request's headers are complete: no deadline until the next request.
    func headersComplete(_ connection: OpenConnection) { connection.due.store(0, ordering: .relaxed) }

    /// The request's response has been sent: the connection now waits for the next request, whose first byte starts
    /// its deadline (see ``cutExpired(millisecondsSinceData:_:)``).
    func requestCompleted(_ connection: OpenConnection) {
        connection.due.store(-MonotonicTime.nanoseconds(), ordering: .relaxed)
    }

    /// The connection is closing: forget it (before its socket is closed).
    func closed(_ connection: OpenConnection) {
        table.withLock { table in
            table.open.removeValue(forKey: ObjectIdentifier(connection))
            guard let address = connection.countedAddress, let count = table.perAddress[address] else { return }
            if count <= 1 {
                table.perAddress.removeValue(forKey: address)
            } else {
                table.perAddress[address] = count - 1
            }
        }
    }

    /// Starts the deadline of each kept-alive connection whose next request has begun (data received since its last
    /// response, by `millisecondsSinceData(socket)`, -1 when unknown), then calls `cut` with the socket of each
    /// connection past its deadline, under the lock; each is cut once.
    func cutExpired(millisecondsSinceData: (Int32) -> Int64, _ cut: (Int32) -> Void) {
        let now = MonotonicTime.nanoseconds()
        table.withLock { table in
            for connection in table.open.values {
                let due = connection.due.load(ordering: .relaxed)
                if due < 0 {
                    let milliseconds = millisecondsSinceData(connection.socket)
                    guard milliseconds >= 0 else { continue }
                    let received = now - milliseconds * 1_000_000
                    if received > -due + Self.receiveClockSlackNanoseconds {
                        // Fails harmlessly if the request line or the headers completed meanwhile.
                        _ = connection.due.compareExchange(
                            expected: due, desired: now + timeoutNanoseconds, ordering: .relaxed)
                    }
                    continue
                }
                guard due != 0, due <= now else { continue }
                cut(connection.socket)
                connection.due.store(0, ordering: .relaxed)
            }
        }
    }

    /// Runs `check` on a thread of its own every fraction of the timeout until ``stop()``.
    func startWatchdog(_ check: @escaping @Sendable (HeaderDeadlines) -> Void) {
        let interval = checkInterval
        let nanoseconds =
            Int(interval.components.seconds) * 1_000_000_000
            + Int(interval.components.attoseconds / 1_000_000_000)
        startNamedThread("baton.http.header-deadlines") { [self] in
            while !stopped.load(ordering: .acquiring) {
                if stopSignal.wait(timeout: .now() + .nanoseconds(max(1_000_000, nanoseconds))) == .success { break }
                check(self)
            }
        }
    }

    /// How often the watchdog checks: a quarter of the timeout, at most a second.
    var checkInterval: Duration { min(Duration.seconds(1), timeout / 4) }

    /// Ends the watchdog thread.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        stopSignal.signal()
    }
}

/// What Baton keeps per open connection: its socket, its peer's address (formatted once, not per request) and its
/// header deadline in monotonic nanoseconds: positive while one runs, 0 while none does (a request is being read
/// or answered), and minus the time its last response went out while it waits for the next request.
final class OpenConnection: Sendable {
    let socket: Int32
    let remoteAddress: String?
    /// The address this connection counts against in the per-address limit, `nil` when it counts against none.
    let countedAddress: String?
    /// Whether the connection was one too many for its address: it is closed without being read.
    let isOverLimit: Bool
    let due: Atomic<Int64>

    init(socket: Int32, remoteAddress: String?, countedAddress: String?, overLimit: Bool, due: Int64) {
        self.socket = socket
        self.remoteAddress = remoteAddress
        self.countedAddress = countedAddress
        self.isOverLimit = overLimit
        self.due = Atomic(due)
    }
}

/// `CLOCK_MONOTONIC` in nanoseconds: one vDSO call, cheap enough for every request.
package enum MonotonicTime {
    package static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
