import BatonHTTP
import Foundation
import Synchronization

/// Says once why the store stopped answering, and once that it answers again.
///
/// A full disk or a restarting PostgreSQL fails every request that touches the store; logging each would bury the
/// cause under thousands of identical lines (and fill the disk that is already full). The first failure after a
/// healthy period writes one `store_unavailable` line with the engine, its code and a plain reason (`disk_full`,
/// `connection_lost`, …); the first success after an outage writes one `store_recovered` line with how long it
/// lasted and how many requests were refused meanwhile. Neither line carries SQL, arguments or a database message.
///
/// A request's outcome is reported when its answer is ready, which on a busy machine can be long after the store
/// answered it, and after other requests have reported newer outcomes. So each request takes a ``Mark`` when it
/// begins, and its outcome changes the state only if no line was written since: a failure of a request that began
/// before the outage's `store_recovered` line is a late answer of that outage (not a new one), and a success of a
/// request that began before the `store_unavailable` line says nothing about the store now (it does not end it).
final class StoreOutageLog: Sendable {
    /// When a request began, in lines written: its outcome speaks for the store only if no line was written since.
    struct Mark: Sendable, Equatable {
        fileprivate let lines: Int
    }

    private struct State {
        var since: Date?
        /// The outage refuses writes only (a full disk, a read-only file): a read that succeeds proves nothing.
        var writesOnly = false
        var refused = 0
        /// `store_unavailable` and `store_recovered` lines written so far.
        var lines = 0
    }

    private let logger: Logger
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    /// Logs to `logger`, timing outages with `now`.
    init(logger: Logger, now: @escaping @Sendable () -> Date) {
        self.logger = logger
        self.now = now
    }

    /// Whether an outage is under way (the last store answer was a failure).
    var isDown: Bool { state.withLock { $0.since != nil } }

    /// Taken when a request begins, and handed back with its outcome.
    func mark() -> Mark { state.withLock { Mark(lines: $0.lines) } }

    /// A request begun at `mark` failed on `error`: the first failure of an outage is logged, the others counted; a
    /// failure of a request that began before the last outage ended is part of that outage and changes nothing.
    func failed(_ error: StoreError, since mark: Mark) {
        let at = now()
        let first = state.withLock { state -> Bool in
            if state.since != nil {
                state.refused += 1
                return false
            }
            guard mark.lines == state.lines else { return false }
            let writesOnly = ["disk_full", "read_only"].contains(Self.reason(for: error))
            state = State(since: at, writesOnly: writesOnly, refused: 1, lines: state.lines + 1)
            return true
        }
        guard first else { return }
        var fields: [String: LogValue] = [
            "engine": .string(error.engine.rawValue), "operation": .string(error.operation),
            "reason": .string(Self.reason(for: error)),
        ]
        if let code = error.engineCode { fields["engine_code"] = .string(code) }
        logger.log(.error, "store_unavailable", fields)
    }

    /// A request begun at `mark` that the store served succeeded: ends an outage, if there was one and the request
    /// began after it was logged, with one line. A request that only `read` does not end an outage that refuses
    /// writes only: on a full disk SQLite still answers reads (`/readyz`), and counting one as the recovery logged a
    /// second outage at the next refused write.
    func succeeded(since mark: Mark, read: Bool = false) {
        let at = now()
        let ended = state.withLock { state -> (Date, Int)? in
            guard let since = state.since, mark.lines == state.lines, !(read && state.writesOnly) else { return nil }
            defer { state = State(lines: state.lines + 1) }
            return (since, state.refused)
        }
        guard let (since, refused) = ended else { return }
        logger.log(
            .info, "store_recovered",
            ["outage_ms": .int(Int(at.timeIntervalSince(since) * 1000)), "refused_requests": .int(refused)])
    }

    /// A plain reason for the log line, from the error's code and the engine's own code (SQLite extended result
    /// code, PostgreSQL SQLSTATE).
    static func reason(for error: StoreError) -> String {
        switch error.code {
        case .busy: return "busy"
        case .closed: return "closed"
        default: break
        }
        guard let code = error.engineCode else { return "unreachable" }
        switch error.engine {
        case .sqlite:
            switch (Int(code) ?? 0) & 0xff {
            case 13: return "disk_full"
            case 10: return "io_error"
            case 14: return "cannot_open"
            case 8: return "read_only"
            case 3: return "permission_denied"
            default: return "unavailable"
            }
        case .postgres:
            if code == "53100" { return "disk_full" }
            if code.hasPrefix("08") { return "connection_lost" }
            if code == "57P01" || code == "57P02" { return "server_shutting_down" }
            if code == "57P03" { return "server_starting" }
            if code == "25006" { return "read_only" }
            if code.hasPrefix("53") { return "insufficient_resources" }
            if code.hasPrefix("28") { return "authentication_failed" }
            return "unavailable"
        }
    }
}
