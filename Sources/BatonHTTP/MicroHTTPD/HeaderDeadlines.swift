import Foundation
import Synchronization

/// The deadline for each connection's request headers, and the watchdog that cuts off connections past it.
///
/// libmicrohttpd 0.9.75 has only an idle timeout, which every byte resets, so a client dripping its headers one byte
/// at a time would hold a connection forever. A connection's deadline starts when it is accepted (and, for a later
/// request on a kept-alive connection, when its request line has arrived); the access handler's first call (headers
/// complete) clears it.
///
/// Each connection has its own ``OpenConnection`` (its deadline an atomic), kept in libmicrohttpd's socket context, so the
/// per-request updates touch no shared lock; the table of open connections changes only when one opens or closes.
/// The watchdog cuts a connection with `shutdown` while the table's lock is held: libmicrohttpd reports a connection
/// closed (``closed(_:)``) before it closes the socket, so a descriptor in the table is never one already reused.
final class HeaderDeadlines: Sendable {
    private let timeout: Duration
    private let timeoutNanoseconds: Int64
    private let open = Mutex<[ObjectIdentifier: OpenConnection]>([:])
    private let stopSignal = DispatchSemaphore(value: 0)
    private let stopped = Atomic(false)

    init(timeout: Duration) {
        self.timeout = timeout
        let (seconds, attoseconds) = timeout.components
        self.timeoutNanoseconds = max(1, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// A connection was accepted: its headers are due within the timeout. The caller keeps the returned deadline
    /// (in the connection's socket context) and hands it to the other calls.
    func opened(socket: Int32, remoteAddress: String?) -> OpenConnection {
        let deadline = OpenConnection(
            socket: socket, remoteAddress: remoteAddress, due: MonotonicTime.nanoseconds() + timeoutNanoseconds)
        open.withLock { $0[ObjectIdentifier(deadline)] = deadline }
        return deadline
    }

    /// A request line arrived: a kept-alive connection's next request has begun.
    func requestStarted(_ connection: OpenConnection) {
        if connection.due.load(ordering: .relaxed) == 0 {
            connection.due.store(MonotonicTime.nanoseconds() + timeoutNanoseconds, ordering: .relaxed)
        }
    }

    /// The request's headers are complete: no deadline until the next request line.
    func headersComplete(_ connection: OpenConnection) { connection.due.store(0, ordering: .relaxed) }

    /// The connection is closing: forget it (before its socket is closed).
    func closed(_ connection: OpenConnection) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// Calls `cut` with the socket of each connection past its deadline, under the lock; each is cut once.
    func cutExpired(_ cut: (Int32) -> Void) {
        let now = MonotonicTime.nanoseconds()
        open.withLock { open in
            for connection in open.values {
                let due = connection.due.load(ordering: .relaxed)
                guard due != 0, due <= now else { continue }
                cut(connection.socket)
                connection.due.store(0, ordering: .relaxed)
            }
        }
    }

    /// Runs `check` on a thread of its own every fraction of the timeout until ``stop()``.
    func startWatchdog(_ check: @escaping @Sendable (HeaderDeadlines) -> Void) {
        let interval = min(Duration.seconds(1), timeout / 4)
        let nanoseconds =
            Int(interval.components.seconds) * 1_000_000_000
            + Int(interval.components.attoseconds / 1_000_000_000)
        let thread = Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                if stopSignal.wait(timeout: .now() + .nanoseconds(max(1_000_000, nanoseconds))) == .success { break }
                check(self)
            }
        }
        thread.name = "baton.http.header-deadlines"
        thread.start()
    }

    /// Ends the watchdog thread.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        stopSignal.signal()
    }
}

/// What Baton keeps per open connection: its socket, its peer's address (formatted once, not per request) and its
/// header deadline in monotonic nanoseconds (0 while none is running).
final class OpenConnection: Sendable {
    let socket: Int32
    let remoteAddress: String?
    let due: Atomic<Int64>

    init(socket: Int32, remoteAddress: String?, due: Int64) {
        self.socket = socket
        self.remoteAddress = remoteAddress
        self.due = Atomic(due)
    }
}

/// `CLOCK_MONOTONIC` in nanoseconds: one vDSO call, cheap enough for every request.
enum MonotonicTime {
    static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
