import BatonHTTPTesting
import Foundation
import Testing

@testable import BatonHTTP

/// The event loop as a task executor: a task that prefers it wakes on its thread whoever resumes it, the source runs
/// when handed a connection to resume, and a job that arrives after the loop stopped still runs.
@Suite("Event loop")
struct EventLoopTests {
    /// A loop driving a source that never becomes readable (the read end of a pipe nobody writes), counting its runs.
    final class Fixture: Sendable {
        let loop = EventLoop(name: "test.loop")
        /// The tokens each run of the source was handed.
        let runs: AsyncStream<[UInt]>
        private let ends: (read: Int32, write: Int32)

        init() {
            var ends: [Int32] = [-1, -1]
            precondition(pipe(&ends) == 0)
            self.ends = (ends[0], ends[1])
            let (runs, continuation) = AsyncStream.makeStream(of: [UInt].self)
            self.runs = runs
            loop.start(EventLoop.Source(fileDescriptor: ends[0], timeout: { -1 }, run: { continuation.yield($0) }))
        }

        deinit {
            close(ends.read)
            close(ends.write)
        }
    }

    @Test func aTaskThatPrefersTheLoopWakesOnItsThreadWhoeverResumesIt() async {
        let fixture = Fixture()
        let names = await withTaskExecutorPreference(fixture.loop) {
            let before = currentThreadName()
            // Resumed from a thread of its own, as the store's writer or libcurl's thread resume a handler.
            await withCheckedContinuation { continuation in
                Thread { continuation.resume() }.start()
            }
            return [before, currentThreadName()]
        }
        #expect(names == ["test.loop", "test.loop"])
        await Self.stop(fixture.loop)
    }

    @Test func aConnectionHandedToTheLoopIsResumedByItsSourceInOrder() async {
        let fixture = Fixture()
        fixture.loop.resumeSoon(7)
        fixture.loop.resumeSoon(8)
        var resumed: [UInt] = []
        for await tokens in fixture.runs {
            resumed += tokens
            if resumed.count >= 2 { break }
        }
        #expect(resumed == [7, 8])
        await Self.stop(fixture.loop)
    }

    @Test func aJobQueuedAfterTheLoopStoppedStillRuns() async {
        let fixture = Fixture()
        await Self.stop(fixture.loop)
        let ran = await withTaskExecutorPreference(fixture.loop) {
            await Task.yield()
            return true
        }
        #expect(ran)
    }

    @Test func aLoopTellsItsOwnCodeWhetherAnythingElseWaitsForItsThread() async {
        let fixture = Fixture()
        let loop = fixture.loop
        #expect(!eventLoopHasNothingQueued)  // not a loop's thread
        #expect(await withTaskExecutorPreference(loop) { eventLoopHasNothingQueued })
        let behindAClosure = await withTaskExecutorPreference(loop) { () -> Bool in
            loop.execute {}
            return eventLoopHasNothingQueued
        }
        #expect(!behindAClosure)
        // Two jobs in one round: the first sees the second waiting behind it, the second sees nothing.
        let held = DispatchSemaphore(value: 0)
        loop.execute { held.wait() }
        let jobs = (0..<2).map { _ in Task(executorPreference: loop) { eventLoopHasNothingQueued } }
        held.signal()
        var seen: [Bool] = []
        for job in jobs { seen.append(await job.value) }
        #expect(seen == [false, true])
        await Self.stop(loop)
    }

    static func stop(_ loop: EventLoop) async {
        await withCheckedContinuation { continuation in
            Thread {
                loop.stopAndWait()
                continuation.resume()
            }.start()
        }
    }
}
