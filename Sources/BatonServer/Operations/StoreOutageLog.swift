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
final class StoreOutageLog: Sendable {
    private struct State {
        var since: Date?
        var refused = 0
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

    /// A request failed on `error`: the first failure of an outage is logged, the others counted.
    func failed(_ error: StoreError) {
        let at = now()
        let first = state.withLock { state -> Bool in
            state.refused += 1
            guard state.since == nil else { return false }
            state.since = at
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

    /// A request the store served succeeded: ends an outage, if there was one, with one line.
    func succeeded() {
        let at = now()
        let ended = state.withLock { state -> (Date, Int)? in
            guard let since = state.since else { return nil }
            defer { state = State() }
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
            if code.hasPrefix("53") { return "insufficient_resources" }
            if code.hasPrefix("28") { return "authentication_failed" }
            return "unavailable"
        }
    }
}
