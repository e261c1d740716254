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
        schedule.finished(complete: false)
        #expect(schedule.housekeepingMayWrite, "150 frames: below the limit")
    }

    @Test func pastTheLimitHousekeepingWaitsUntilACheckpointHasCaughtUp() {
        var schedule = schedule()
        #expect(schedule.committed(walFrames: 1000) == .passive)
        // Frames committed meanwhile (or a reader's older snapshot) were left: the WAL cannot start over yet.
        schedule.finished(complete: false)
        #expect(!schedule.running)
        #expect(!schedule.housekeepingMayWrite, "the checkpoint ended, but the WAL is as large as before")
        #expect(schedule.committed(walFrames: 1040) == .passive)
        #expect(!schedule.housekeepingMayWrite)
        // Everything copied: the next write starts the WAL over.
        schedule.finished(complete: true)
        #expect(schedule.walFrames == 0)
        #expect(schedule.housekeepingMayWrite)
    }

    @Test func aCommitAfterTheWALStartedOverReportsItsSize() {
        var schedule = schedule()
        #expect(schedule.committed(walFrames: 1200) == .passive)
        schedule.finished(complete: true)
        // A reader kept the WAL from starting over after all: the next commit says so, and housekeeping waits again.
        #expect(schedule.committed(walFrames: 1230) == .passive)
        #expect(!schedule.housekeepingMayWrite)
    }

    @Test func aWALThatCouldNotStartOverIsTruncated() {
        var schedule = schedule()
        #expect(schedule.committed(walFrames: 5000) == .truncate)
        schedule.finished(complete: true)
        #expect(schedule.housekeepingMayWrite)
    }
}
