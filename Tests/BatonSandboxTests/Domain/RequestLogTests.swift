import Foundation
import Testing

@testable import BatonSandbox

@Suite struct RequestLogTests {
    private static let clock = SandboxClock { Date(timeIntervalSince1970: 1_800_000_000) }

    @Test func keepsTheNewestCallsOldestFirstAndCompletesThemBySequence() async {
        let log = RequestLog(clock: Self.clock, capacity: 3)
        var sequences: [Int] = []
        for index in 0..<5 {
            sequences.append(await log.begin(method: "POST", path: "/p\(index)", route: nil, idempotencyKey: nil))
        }
        // Calls 1 and 2 were dropped: finishing them changes nothing; 3 and 5 complete in place.
        await log.finish(sequences[0], status: 201, fault: nil)
        await log.finish(sequences[2], status: 503, fault: "status")
        await log.finish(sequences[4], status: nil, fault: "drop")
        let entries = await log.list()
        #expect(entries.map(\.sequence) == [3, 4, 5])
        #expect(entries.map(\.path) == ["/p2", "/p3", "/p4"])
        #expect(entries.map(\.status) == [503, nil, nil])
        #expect(entries.map(\.fault) == ["status", nil, "drop"])
        #expect(entries.map { $0.completedAt != nil } == [true, false, true])
    }

    @Test func aCallBegunBeforeAClearIsNotRecordedWhenItEnds() async {
        let log = RequestLog(clock: Self.clock, capacity: 3)
        let before = await log.begin(method: "GET", path: "/a", route: nil, idempotencyKey: nil)
        await log.clear()
        let after = await log.begin(method: "GET", path: "/b", route: nil, idempotencyKey: nil)
        await log.finish(before, status: 200, fault: nil)
        #expect(await log.list().map(\.status) == [nil])
        await log.finish(after, status: 200, fault: nil)
        #expect(await log.list().map(\.sequence) == [after])
        #expect(await log.list().map(\.status) == [200])
    }
}
