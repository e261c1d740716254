import BatonTestSupport
import Foundation
import Synchronization
import Testing

/// `cooperativeLoop` lets other tasks on its thread run while it loops: on an executor with a single thread (the
/// cooperative pool's two threads, both taken by long loops, in miniature), a task enqueued behind the loop runs
/// before the loop ends. A plain loop would hold the thread to its end.
@Suite struct CooperativeLoopTests {
    @Test func aLongLoopLetsATaskQueuedBehindItRunBeforeItEnds() async throws {
        let executor = OneThreadExecutor()
        defer { executor.stop() }
        let flags = Flags()
        let (seenAt, otherSawLoopStarted) = await withTaskGroup(of: (Int?, Bool?).self) { group in
            group.addTask(executorPreference: executor) {
                flags.loopStarted.store(true, ordering: .releasing)
                var seenAt: Int?
                await cooperativeLoop(1_000, yieldingEvery: 10) { index in
                    // Hold the thread until the other task is queued behind the loop (it is enqueued from the
                    // test's own thread, which a loaded machine may run late), so the loop cannot end before it.
                    if index == 0 { flags.waitUntilOtherQueued() }
                    if seenAt == nil && flags.otherRan.load(ordering: .acquiring) { seenAt = index }
                }
                return (seenAt, nil)
            }
            group.addTask(executorPreference: executor) {
                flags.otherRan.store(true, ordering: .releasing)
                return (nil, flags.loopStarted.load(ordering: .acquiring))
            }
            flags.otherQueued.store(true, ordering: .releasing)
            var results: (Int?, Bool?) = (nil, nil)
            for await (seen, started) in group {
                if let seen { results.0 = seen }
                if let started { results.1 = started }
            }
            return results
        }
        #expect(otherSawLoopStarted == true)
        // The other task runs at one of the loop's yields, never after the loop ended.
        let seen = try #require(seenAt, "the other task ran only after the loop ended")
        #expect(seen % 10 == 0 && seen < 1_000)
    }
}

/// What the two tasks tell each other.
private final class Flags: Sendable {
    let loopStarted = Atomic(false)
    let otherRan = Atomic(false)
    let otherQueued = Atomic(false)

    /// Spins (at most 10 s) until the test has queued the other task.
    func waitUntilOtherQueued() {
        let deadline = ContinuousClock.now + .seconds(10)
        while !otherQueued.load(ordering: .acquiring) && ContinuousClock.now < deadline {}
    }
}

/// A task executor with one thread running its jobs in order of arrival.
private final class OneThreadExecutor: TaskExecutor {
    private let jobs = Mutex<(queue: [UnownedJob], stopped: Bool)>(([], false))
    private let ready = DispatchSemaphore(value: 0)

    init() {
        Thread { [self] in run() }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.queue.append(job) }
        ready.signal()
    }

    func stop() {
        jobs.withLock { $0.stopped = true }
        ready.signal()
    }

    private func run() {
        while true {
            ready.wait()
            let next: UnownedJob?? = jobs.withLock { state in
                if state.queue.isEmpty { return state.stopped ? .some(nil) : nil }
                return .some(state.queue.removeFirst())
            }
            switch next {
            case .some(.some(let job)): job.runSynchronously(on: asUnownedTaskExecutor())
            case .some(.none): return
            case .none: continue
            }
        }
    }
}
