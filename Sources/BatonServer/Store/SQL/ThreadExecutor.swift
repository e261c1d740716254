import BatonHTTP
import Dispatch
import Foundation
import Synchronization

/// A serial executor backed by one dedicated thread, so blocking database calls never run on (or stall)
/// Swift's cooperative thread pool. An actor adopting it runs every method on that thread. It is a task executor too:
/// a task that prefers it starts on that thread and calls the actor there without a hop, and ends there.
final class ThreadExecutor: SerialExecutor, TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var head = 0
        var stopping = false
        var threadRunning = true
    }

    private let name: String
    private let queue = Mutex(Queue())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Starts the thread, named `name` for debuggers.
    init(name: String) {
        self.name = name
        startThread()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let restart = queue.withLock { queue in
            queue.jobs.append(unowned)
            defer { queue.threadRunning = true }
            return !queue.threadRunning
        }
        wakeUp.signal()
        // After `shutdown` the thread exits when idle; a late job (which only learns the store is closed) gets
        // a fresh thread, so it can never hang. At most one thread runs jobs at a time.
        if restart { startThread() }
    }

    /// Lets the thread finish the jobs already queued, then exit.
    func shutdown() {
        queue.withLock { $0.stopping = true }
        wakeUp.signal()
    }

    private func startThread() {
        startNamedThread(name) { [self] in self.runJobs() }
    }

    private func runJobs() {
        while true {
            wakeUp.wait()
            let next: UnownedJob?? = queue.withLock { queue in
                if queue.head < queue.jobs.count {
                    let job = queue.jobs[queue.head]
                    queue.head += 1
                    if queue.head > 64, queue.head * 2 > queue.jobs.count {
                        queue.jobs.removeFirst(queue.head)
                        queue.head = 0
                    }
                    return .some(job)
                }
                guard queue.stopping else { return .some(nil) }
                queue.threadRunning = false
                return .none
            }
            switch next {
            case .none: return
            case .some(.some(let job)):
                job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
            case .some(.none): continue
            }
        }
    }
}

/// One database connection confined to its own thread. The connection is opened lazily on that thread,
/// reopened after it breaks, and otherwise only used on that thread, or by ``runHere(_:)`` when it is free.
actor ConfinedConnection<Session: SQLSession> {
    /// The connection and what it was opened under. Locked for as long as the connection is in use, so that two
    /// threads can never use it at once, and each use sees the last one's writes to it.
    private struct Slot {
        var session: Session?
        /// The `freshSince` value the session was opened under (see ``run(_:freshSince:_:)``).
        var epoch = 0
        var closed = false
    }

    private let executor: ThreadExecutor
    private let open: @Sendable () throws(StoreError) -> Session
    private let engine: StoreError.Engine
    private let slot = Mutex(Slot())

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(name: String, engine: StoreError.Engine, open: @escaping @Sendable () throws(StoreError) -> Session) {
        self.executor = ThreadExecutor(name: name)
        self.open = open
        self.engine = engine
    }

    /// Runs `body` with the connection, on the connection's thread.
    ///
    /// With `freshSince`, a connection opened under a smaller value is replaced first: the pool raises it when one of
    /// its connections is lost (a server restart ends all of them), so the others reconnect before their next use
    /// instead of each failing one request first.
    func run<T: Sendable>(
        _ operation: String, freshSince epoch: Int = 0, _ body: @Sendable (Session) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try slot.withLock { slot throws(StoreError) in try body(try current(&slot, operation, freshSince: epoch)) }
    }

    /// Runs `body` with the connection (or the error that kept it from opening) on the connection's thread; while
    /// `body` returns `true`, runs it again as a job of its own on this thread, enqueued here directly (a task
    /// isolated to this actor), so the caller resumes after the first run while the thread goes straight on.
    func runRepeating(_ operation: String, _ body: @escaping @Sendable (Result<Session, StoreError>) -> Bool) {
        let again = slot.withLock { slot in
            let session: Result<Session, StoreError>
            do throws(StoreError) {
                session = .success(try current(&slot, operation, freshSince: 0))
            } catch {
                session = .failure(error)
            }
            return body(session)
        }
        guard again else { return }
        Task { self.runRepeating(operation, body) }
    }

    /// Starts ``runRepeating(_:_:)`` from any thread, without waiting for it: the task starts on the connection's
    /// thread, so it neither runs first nor ends on the caller's (an event loop would be woken for it).
    nonisolated func startRepeating(
        _ operation: String, _ body: @escaping @Sendable (Result<Session, StoreError>) -> Bool
    ) {
        Task(executorPreference: executor) { await self.runRepeating(operation, body) }
    }

    /// Starts `body` on the connection's thread from any thread, without waiting for it (as ``startRepeating(_:_:)``),
    /// and calls `done` there after it, whatever its outcome.
    nonisolated func start(
        _ operation: String, _ body: @escaping @Sendable (Session) throws(StoreError) -> Void,
        done: @escaping @Sendable () -> Void
    ) {
        Task(executorPreference: executor) {
            _ = try? await self.run(operation, body)
            done()
        }
    }

    /// Runs `body` with the connection on the calling thread, if it is open, healthy and not in use; otherwise returns
    /// `nil` at once, without waiting, opening or reopening anything (that stays on the connection's thread).
    nonisolated func runHere<T: Sendable>(_ body: @Sendable (Session) -> T) -> T? {
        let result: T?? = slot.withLockIfAvailable { slot -> T? in
            guard !slot.closed, let session = slot.session, session.isHealthy else { return nil }
            return body(session)
        }
        return result ?? nil
    }

    /// The open connection, opened (again) first if there is none, it broke, or it predates `epoch`.
    private nonisolated func current(
        _ slot: inout Slot, _ operation: String, freshSince epoch: Int
    ) throws(StoreError) -> Session {
        guard !slot.closed else { throw StoreError(.closed, engine: engine, operation: operation) }
        if let session = slot.session, session.isHealthy, slot.epoch >= epoch { return session }
        slot.session?.close()
        slot.session = nil
        let opened = try open()
        slot.session = opened
        slot.epoch = epoch
        return opened
    }

    /// Closes the connection and stops the thread once this call returns.
    func close() {
        let closing = slot.withLock { slot in
            guard !slot.closed else { return false }
            slot.closed = true
            slot.session?.close()
            slot.session = nil
            return true
        }
        if closing { executor.shutdown() }
    }
}
