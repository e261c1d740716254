import BatonCore
import Foundation

/// Every provider call an origin received (control calls excluded), for `GET /_sandbox/requests`.
///
/// An entry is written when the call arrives and completed when it is answered, so a call held open by a
/// `timeout` fault is listed while it hangs. No headers other than `Idempotency-Key`, no bodies, no query strings,
/// and journey paths only as their route pattern.
actor RequestLog {
    struct Entry: Sendable {
        let sequence: Int
        let method: String
        let path: String
        let route: String?
        let idempotencyKey: String?
        let receivedAt: Date
        var status: Int?
        var fault: String?
        var completedAt: Date?

        var json: JSONValue {
            [
                "sequence": .integer(sequence), "method": .string(method), "path": .string(path),
                "route": .optional(route), "idempotencyKey": .optional(idempotencyKey),
                "status": status.map(JSONValue.integer) ?? .null, "fault": .optional(fault),
                "time": .date(receivedAt), "completedAt": .date(completedAt),
            ]
        }
    }

    private let clock: SandboxClock
    /// The newest `capacity` entries. Their sequence numbers are consecutive (each call gets the next one, and only
    /// the oldest entries are ever dropped), so call `n` sits at position `n - entries[0].sequence`: recording and
    /// completing a call cost the same however full the log is.
    private var entries: BoundedLog<Entry>
    private var nextSequence = 1

    init(clock: SandboxClock, capacity: Int = 10_000) {
        self.clock = clock
        self.entries = BoundedLog(capacity: capacity)
    }

    /// Records an arriving call; returns its sequence number.
    func begin(method: String, path: String, route: String?, idempotencyKey: String?) -> Int {
        let entry = Entry(
            sequence: nextSequence, method: method, path: path, route: route, idempotencyKey: idempotencyKey,
            receivedAt: clock.now())
        nextSequence += 1
        entries.append(entry)
        return entry.sequence
    }

    /// Records how call `sequence` ended (`status` `nil` when the connection was dropped).
    func finish(_ sequence: Int, status: Int?, fault: String?) {
        // A call older than every entry kept (dropped from the log while it ran) is not recorded.
        guard !entries.isEmpty else { return }
        let position = sequence - entries[0].sequence
        guard position >= 0, position < entries.count else { return }
        entries[position].status = status
        entries[position].fault = fault
        entries[position].completedAt = clock.now()
    }

    /// The entries, oldest first.
    func list() -> [Entry] { entries.elements }

    /// Forgets every entry.
    func clear() { entries.removeAll() }
}
