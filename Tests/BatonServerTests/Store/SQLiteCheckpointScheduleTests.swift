import Testing

@testable import BatonServer

@Suite("SQLite checkpoint schedule: when the WAL is checkpointed, and when housekeeping may write")
struct SQLiteCheckpointScheduleTests {
    private func schedule() -> SQLiteCheckpointSchedule {
        SQLiteCheckpointSchedule(threshold: 100, housekeepingLimit: 1000, truncateAbove: 5000)
    }

    @Test func belowTheThresholdNothingRunsAndHousekeepingWrites() {
        var schedule = schedule()
        #expect(schedule.committed(walFrames: 99) == nil)
        #expect(schedule.housekeepingMayWrite)
    }

    @Test func housekeepingWaitsWhileACheckpointRuns() {
        var schedule = schedule()
        #expect(schedule.committed(walFrames: 100) == .passive)
        #expect(!schedule.housekeepingMayWrite)
        #expect(schedule.committed(walFrames: 150) == nil, "one checkpoint at a time")
        #expect(schedule.finished(.passive, copied: 100, of: 100) == nil)
        #expect(schedule.walFrames == 150, "a commit came while it ran: not caught up")
        #expect(schedule.housekeepingMayWrite, "150 frames: below the limit")
    }

    @Test func pastTheLimitHousekeepingWaitsUntilACheckpointHasCaughtUp() {
        var schedule = schedule()
        #expect(schedule.committed(walFrames: 1000) == .passive)
        // A reader's older snapshot kept frames from being copied: the WAL cannot start over yet.
        #expect(schedule.finished(.passive, copied: 700, of: 1000) == nil)
        #expect(!schedule.running)
        #expect(!schedule.housekeepingMayWrite, "the checkpoint ended, but the WAL is as large as before")
        #expect(schedule.committed(walFrames: 1040) == .passive)
        // Everything it found copied, but a commit came meanwhile: SQLite will not start the WAL over at the next
        // write, so the next checkpoint starts at once and housekeeping keeps waiting.
        #expect(schedule.committed(walFrames: 1060) == nil)
        #expect(schedule.finished(.passive, copied: 1040, of: 1040) == .passive)
        #expect(!schedule.housekeepingMayWrite)
        // Everything copied and no commit since: the next write starts the WAL over.
        #expect(schedule.finished(.passive, copied: 1060, of: 1060) == nil)
        #expect(schedule.walFrames == 0)
        #expect(schedule.housekeepingMayWrite)
    }

    @Test func aCommitAfterTheWALStartedOverReportsItsSize() {
        var schedule = schedule()
        #expect(schedule.committed(walFrames: 1200) == .passive)
        #expect(schedule.finished(.passive, copied: 1200, of: 1200) == nil)
        // A reader kept the WAL from starting over after all: the next commit says so, and housekeeping waits again.
        #expect(schedule.committed(walFrames: 1230) == .passive)
        #expect(!schedule.housekeepingMayWrite)
    }

    @Test func aWALThatCouldNotStartOverIsTruncated() {
        var schedule = schedule()
        #expect(schedule.committed(walFrames: 5000) == .truncate)
        #expect(schedule.finished(.truncate, copied: 0, of: 0) == nil, "TRUNCATE reports an empty WAL")
        #expect(schedule.housekeepingMayWrite)
    }
}
