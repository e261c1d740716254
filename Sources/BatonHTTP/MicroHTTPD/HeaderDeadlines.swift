import Foundation
import Synchronization

/// The deadline for each connection's request headers, and the watchdog that cuts off connections past it.
///
/// libmicrohttpd 0.9.75 has only an idle timeout, which every byte resets, so a client dripping its headers one byte
/// at a time would hold a connection forever. A connection's deadline starts when it is accepted (and, for a later
/// request on a kept-alive connection, when its request line has arrived); the access handler's first call (headers
/// complete) clears it. Connections are keyed by address and carry their socket, which the wrapper cuts with
/// `shutdown` while the lock is held: libmicrohttpd reports a connection closed (``closed(_:)``) before it closes the
/// socket, so a descriptor in the table is never one already reused for another connection.
final class HeaderDeadlines: Sendable {
    private struct Entry {
        let socket: Int32
        var deadline: ContinuousClock.Instant?
    }

    private let timeout: Duration
    private let entries = Mutex<[UInt: Entry]>([:])
    private let stopSignal = DispatchSemaphore(value: 0)
    private let stopped = Atomic(false)

    init(timeout: Duration) { self.timeout = timeout }

    /// A connection was accepted: its headers are due within the timeout.
    func opened(_ connection: UInt, socket: Int32, now: ContinuousClock.Instant = .now) {
        entries.withLock { $0[connection] = Entry(socket: socket, deadline: now + timeout) }
    }

    /// A request line arrived: a kept-alive connection's next request has begun.
    func requestStarted(_ connection: UInt, now: ContinuousClock.Instant = .now) {
        entries.withLock { entries in
            if entries[connection]?.deadline == nil { entries[connection]?.deadline = now + timeout }
        }
    }

    /// The request's headers are complete: no deadline until the next request line.
    func headersComplete(_ connection: UInt) {
        entries.withLock { $0[connection]?.deadline = nil }
    }

    /// The connection is closing: forget it (before its socket is closed).
    func closed(_ connection: UInt) {
        _ = entries.withLock { $0.removeValue(forKey: connection) }
    }

    /// Calls `cut` with the socket of each connection past its deadline, under the lock; each is cut once.
    func cutExpired(now: ContinuousClock.Instant = .now, _ cut: (Int32) -> Void) {
        entries.withLock { entries in
            for (connection, entry) in entries {
                guard let deadline = entry.deadline, deadline <= now else { continue }
                cut(entry.socket)
                entries[connection]?.deadline = nil
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
