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
    private let capacity: Int
    private var entries: [Entry] = []
    private var nextSequence = 1

    init(clock: SandboxClock, capacity: Int = 10_000) {
        self.clock = clock
        self.capacity = capacity
    }

    /// Records an arriving call; returns its sequence number.
    func begin(method: String, path: String, route: String?, idempotencyKey: String?) -> Int {
        let entry = Entry(
            sequence: nextSequence, method: method, path: path, route: route, idempotencyKey: idempotencyKey,
            receivedAt: clock.now())
        nextSequence += 1
        entries.append(entry)
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        return entry.sequence
    }

    /// Records how call `sequence` ended (`status` `nil` when the connection was dropped).
    func finish(_ sequence: Int, status: Int?, fault: String?) {
        guard let index = entries.lastIndex(where: { $0.sequence == sequence }) else { return }
        entries[index].status = status
        entries[index].fault = fault
        entries[index].completedAt = clock.now()
    }

    /// The entries, oldest first.
    func list() -> [Entry] { entries }

    /// Forgets every entry.
    func clear() { entries = [] }
}
