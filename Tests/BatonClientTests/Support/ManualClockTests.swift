import BatonTestSupport
import Foundation
import Testing

/// The shared test clock keeps the promises the coordinator tests rely on: timers fire only when the clock passes
/// them, a cancelled timer ends at once, and a test can wait until its timers are set.
@Suite struct ManualClockTests {
    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    @Test func aSleeperWakesOnlyWhenTheClockPassesItsDeadline() async throws {
        let clock = ManualClock(Self.start)
        let sleeper = Task { try await clock.sleep(until: Self.start.addingTimeInterval(10)) }
        await clock.waitForSleepers(1)
        clock.advance(by: 5)
        #expect(clock.sleeperCount == 1)  // still asleep: 5 s is short of the deadline
        clock.advance(to: Self.start.addingTimeInterval(10))
        #expect(clock.sleeperCount == 0)
        try await sleeper.value
        #expect(clock.now == Self.start.addingTimeInterval(10))
    }

    @Test func aCancelledSleeperThrowsWithoutTheClockMoving() async throws {
        let clock = ManualClock(Self.start)
        let sleeper = Task { try await clock.sleep(until: Self.start.addingTimeInterval(3600)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.now == Self.start)
    }

    @Test func aDeadlineAlreadyPassedReturnsAtOnce() async throws {
        let clock = ManualClock(Self.start)
        try await clock.sleep(until: Self.start)
        #expect(await clock.now() == Self.start)
    }

    @Test func advancingToAnEarlierDateNeverMovesBackButSetDoes() {
        let clock = ManualClock(Self.start)
        clock.advance(to: Self.start.addingTimeInterval(-60))
        #expect(clock.now == Self.start)
        clock.set(Self.start.addingTimeInterval(-60))
        #expect(clock.now == Self.start.addingTimeInterval(-60))
    }
}
