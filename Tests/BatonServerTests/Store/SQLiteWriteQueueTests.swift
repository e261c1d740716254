import Dispatch
import Foundation
import Synchronization
import Testing

@testable import BatonServer

/// Holds the writer's thread inside a write until `release()`, so that further writes queue up behind it.
final class WriterGate: Sendable {
    let entered = Atomic(false)
    private let semaphore = DispatchSemaphore(value: 0)

    func hold() {
        entered.store(true, ordering: .releasing)
        semaphore.wait()
    }

    func release() { semaphore.signal() }
}

/// Starts a write that blocks the writer's thread; returns once it does.
private func block(_ engine: SQLiteEngine, _ gate: WriterGate) async -> Task<Void, any Error> {
    await block(gate) { gate in
        _ = try await engine.write("hold", transaction: false) { _ throws(StoreError) in gate.hold() }
    }
}

/// Starts `holding`, which calls `gate.hold()` on the writer's thread; returns once it does.
func block(
    _ gate: WriterGate, _ holding: @escaping @Sendable (WriterGate) async throws -> Void
) async -> Task<Void, any Error> {
    let task = Task { try await holding(gate) }
    while !gate.entered.load(ordering: .acquiring) { await Task.yield() }
    return task
}

/// Starts `body` as a write and returns once it is queued (so writes queue in the order started).
private func queue<T: Sendable>(
    _ engine: SQLiteEngine, transaction: Bool, _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
) async -> Task<T, any Error> {
    let before = engine.writes.queuedWrites
    let task = Task { try await engine.write("test", transaction: transaction, body) }
    while engine.writes.queuedWrites == before { await Task.yield() }
    return task
}

@Suite("SQLite group commit: writes queued together share one transaction, each keeping its own outcome")
struct SQLiteWriteQueueTests {
    /// An engine on a fresh file with a table `t (id TEXT PRIMARY KEY)`.
    private func engine() async throws -> SQLiteEngine {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-gc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let engine = SQLiteEngine(
            path: directory.appendingPathComponent("gc.sqlite").path, readers: 1, busyTimeoutMilliseconds: 5000)
        try await engine.write("create", transaction: false) { session throws(StoreError) in
            _ = try session.query("CREATE TABLE t (id TEXT PRIMARY KEY)", [])
        }
        return engine
    }

    private func insert(_ id: String) -> @Sendable (any SQLSession) throws(StoreError) -> Bool {
        { session throws(StoreError) in
            !(try session.query("INSERT INTO t (id) VALUES ($1) RETURNING id", [.text(id)]).isEmpty)
        }
    }

    private func ids(_ engine: SQLiteEngine) async throws -> [String] {
        let rows = try await engine.read("ids") { session throws(StoreError) in
            try session.query("SELECT id FROM t ORDER BY id", [])
        }
        return try rows.map { try $0.text(0) }
    }

    @Test func writesQueuedWhileOneRunsCommitTogether() async throws {
        let engine = try await engine()
        let gate = WriterGate()
        let held = await block(engine, gate)
        let commitsBefore = engine.writes.commits
        var writes: [Task<Bool, any Error>] = []
        for index in 0..<50 { writes.append(await queue(engine, transaction: index % 2 == 0, insert("row\(index)"))) }
        gate.release()
        try await held.value
        for write in writes { #expect(try await write.value) }
        // One commit for the held write, one for the 50 queued behind it (one each before group commit: 51).
        #expect(engine.writes.commits - commitsBefore == 2)
        #expect(try await ids(engine).count == 50)
        await engine.close()
    }

    @Test func aFailedWriteInABatchUndoesOnlyItself() async throws {
        let engine = try await engine()
        let gate = WriterGate()
        let held = await block(engine, gate)
        // A transaction that writes, then fails: its row must go, the batch's other rows stay.
        let failing = await queue(engine, transaction: true) { session throws(StoreError) -> Bool in
            _ = try session.query("INSERT INTO t (id) VALUES ($1) RETURNING id", [.text("undone")])
            throw StoreError(.engineFailure, engine: .sqlite, operation: "test")
        }
        let first = await queue(engine, transaction: false, insert("kept1"))
        let duplicate = await queue(engine, transaction: false, insert("kept1"))
        let last = await queue(engine, transaction: true, insert("kept2"))
        gate.release()
        try await held.value
        await #expect(throws: StoreError(.engineFailure, engine: .sqlite, operation: "test")) {
            try await failing.value
        }
        #expect(try await first.value)
        await #expect { try await duplicate.value } throws: { ($0 as? StoreError)?.code == .constraintViolation }
        #expect(try await last.value)
        #expect(try await ids(engine) == ["kept1", "kept2"])
        await engine.close()
    }

    @Test func writesQueuedWhenTheStoreClosesFailClosed() async throws {
        let engine = try await engine()
        let gate = WriterGate()
        let held = await block(engine, gate)
        let queued = await queue(engine, transaction: false, insert("late"))
        let closing = Task { await engine.close() }
        gate.release()
        try await held.value
        await closing.value
        // It either ran in the batch after the held one (before close took effect) or failed as closed: never hangs.
        do {
            #expect(try await queued.value)
        } catch let error as StoreError {
            #expect(error.code == .closed)
        }
    }
}

/// Batches that queue behind one another run on the writer's thread one after the other, without waking a task to
/// lead the next one: the writes of a batch run even while every task waiting on the writer is held from running.
@Suite("SQLite group commit: the writer's thread runs the next batch itself")
struct SQLiteWriteQueueDrainTests {
    /// A task executor whose jobs wait from ``hold()`` until ``open()``: tasks preferring it cannot run meanwhile.
    private final class HeldExecutor: TaskExecutor {
        private let jobs = Mutex<(queued: [UnownedJob], open: Bool)>(([], true))

        func hold() { jobs.withLock { $0.open = false } }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let runNow = jobs.withLock { state in
                if !state.open { state.queued.append(job) }
                return state.open
            }
            if runNow { run([job]) }
        }

        /// Runs what waited, and every later job at once, each on a thread of its own.
        func open() {
            run(
                jobs.withLock { state in
                    state.open = true
                    defer { state.queued.removeAll() }
                    return state.queued
                })
        }

        private func run(_ jobs: [UnownedJob]) {
            for job in jobs {
                let executor = asUnownedTaskExecutor()
                Thread { job.runSynchronously(on: executor) }.start()
            }
        }
    }

    @Test func aQueuedBatchRunsWhileItsWritersCannotBeWoken() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-gc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let engine = SQLiteEngine(
            path: directory.appendingPathComponent("gc.sqlite").path, readers: 1, busyTimeoutMilliseconds: 5000)
        let gate = WriterGate()
        let held = await block(engine, gate)
        // A write whose task runs on an executor that is then held queues behind the held one.
        let executor = HeldExecutor()
        let ran = Atomic(false)
        let queued = Task(executorPreference: executor) {
            try await engine.write("queued", transaction: false) { _ throws(StoreError) in
                ran.store(true, ordering: .releasing)
            }
        }
        while engine.writes.queuedWrites == 0 { await Task.yield() }
        executor.hold()
        gate.release()
        try await held.value
        // Its batch runs on the writer's thread although its task cannot be woken (with the lead handed to the
        // next queued write's task, it waited for the executor: the test timed out there before).
        let deadline = ContinuousClock.now + .seconds(5)
        while !ran.load(ordering: .acquiring), ContinuousClock.now < deadline { await Task.yield() }
        let ranWhileHeld = ran.load(ordering: .acquiring)
        #expect(ranWhileHeld)
        executor.open()
        try await queued.value
        await engine.close()
    }
}

/// A purge is housekeeping: each of its batches waits until the writes queued meanwhile have committed, and never
/// shares their transaction (a tap waited 1.16 s during a purge of 1 M records when batches were queued like claims).
@Suite("SQLite group commit: a purge yields the writer to queued writes")
struct SQLiteWriteQueueHousekeepingTests {
    /// The order in which writes ran.
    private final class Order: Sendable {
        private let log = Mutex<[String]>([])
        var names: [String] { log.withLock { $0 } }
        func append(_ name: String) { log.withLock { $0.append(name) } }
    }

    @Test func aClaimQueuedBehindAPurgeBatchCommitsBeforeIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-gc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let engine = SQLiteEngine(
            path: directory.appendingPathComponent("gc.sqlite").path, readers: 1, busyTimeoutMilliseconds: 5000)
        try await engine.write("migrate", transaction: true) { session throws(StoreError) in
            try SQLSchema.migrate(session, dialect: .sqlite)
        }
        let store = SQLStore(engine: engine)
        let day: TimeInterval = 86_400
        let start = Date(timeIntervalSince1970: 1_000_000)
        for index in 0..<30 {
            _ = try await store.claim(
                user: "u", key: "old-\(index)", fingerprint: "f", owner: "A", leaseUntil: start + 30, now: start)
        }
        let gate = WriterGate()
        let held = await block(engine, gate)
        // Queued in this order behind the held write: the purge's first batch, a claim, then a write that counts
        // the expired records left when it runs.
        let purge = Task { try await store.purgeIdempotency(now: start + 2 * day, retention: day, batchSize: 10) }
        while engine.writes.queuedWrites < 1 { await Task.yield() }
        let claim = Task {
            try await store.claim(
                user: "u", key: "new", fingerprint: "f", owner: "A", leaseUntil: start + 2 * day + 30,
                now: start + 2 * day)
        }
        while engine.writes.queuedWrites < 2 { await Task.yield() }
        let counted = Task {
            try await engine.write("count", transaction: false) { session throws(StoreError) in
                try session.query(
                    "SELECT idempotency_key FROM idempotency_records WHERE idempotency_key LIKE 'old-%'", []
                ).count
            }
        }
        while engine.writes.queuedWrites < 3 { await Task.yield() }
        gate.release()
        try await held.value

        // The claim and the count ran before any purge batch: all 30 expired records were still there (queued first
        // in the same transaction as them, the batch had deleted 10).
        #expect(try await counted.value == 30)
        #expect(try await claim.value == .claimed)
        #expect(try await purge.value == IdempotencyPurge(responsesErased: 0, recordsDeleted: 30, batches: 5))
        await engine.close()
    }

    @Test func aHousekeepingWriteRunsAfterAFewBatchesHavePassedItBy() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-gc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("gc.sqlite").path
        let connection = ConfinedConnection(name: "test.writer", engine: .sqlite) { () throws(StoreError) in
            try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 5000)
        }
        // One write a batch; housekeeping goes after two batches have passed it by.
        let writes = SQLiteWriteQueue(connection: connection, maximumBatch: 1, housekeepingEvery: 2)
        let order = Order()
        let gate = WriterGate()
        let held = await block(gate) { gate in
            try await writes.write("hold", transaction: false) { _ throws(StoreError) in gate.hold() }
        }
        var tasks: [Task<Void, any Error>] = []
        for (index, name) in ["purge", "a", "b", "c", "d"].enumerated() {
            tasks.append(
                Task {
                    try await writes.write("test", transaction: false, housekeeping: name == "purge") {
                        _ throws(StoreError) in order.append(name)
                    }
                })
            while writes.queuedWrites < index + 1 { await Task.yield() }
        }
        gate.release()
        try await held.value
        for task in tasks { try await task.value }

        // Writes that keep the writer busy pass a waiting purge batch twice, then it runs (without the bound it ran
        // last, or never while they kept coming).
        #expect(order.names == ["a", "b", "purge", "c", "d"])
        await connection.close()
    }

    @Test func aHousekeepingWriteThatStartsTheDrainWaitsForItsOwnBatch() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-gc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("gc.sqlite").path
        let connection = ConfinedConnection(name: "test.writer", engine: .sqlite) { () throws(StoreError) in
            try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 5000)
        }
        let writes = SQLiteWriteQueue(connection: connection)
        let order = Order()
        // The writer's thread is busy outside the queue (which is idle), so the drain the purge batch starts waits.
        let gate = WriterGate()
        let busy = await block(gate) { gate in
            try await connection.run("busy") { _ throws(StoreError) in gate.hold() }
        }
        let purge = Task {
            try await writes.write("purge", transaction: false, housekeeping: true) { _ throws(StoreError) in
                order.append("purge")
                return 100
            }
        }
        while writes.queuedWrites < 1 { await Task.yield() }
        let claim = Task {
            try await writes.write("claim", transaction: false) { _ throws(StoreError) in order.append("claim") }
        }
        while writes.queuedWrites < 2 { await Task.yield() }
        gate.release()
        try await busy.value

        // The claim queued meanwhile went first; the purge batch still answers with its own result (it returned
        // before its batch ran, with no result, when it led the drain like any first write).
        #expect(try await purge.value == 100)
        try await claim.value
        #expect(order.names == ["claim", "purge"])
        await connection.close()
    }
}

/// A batch that holds the one writer past the threshold is reported with what the writer's thread did meanwhile, so
/// that a stall is told apart from work (a purge batch blocked 30–130 ms on single page reads while using 4 ms of CPU).
@Suite("SQLite group commit: a slow batch is reported with what held it up")
struct SQLiteSlowWriteTests {
    private final class Reports: Sendable {
        private let log = Mutex<[SQLiteSlowWrite]>([])
        var all: [SQLiteSlowWrite] { log.withLock { $0 } }
        func append(_ report: SQLiteSlowWrite) { log.withLock { $0.append(report) } }
    }

    private func queue(
        threshold: Double, _ reports: Reports
    ) throws -> (
        SQLiteWriteQueue, ConfinedConnection<SQLiteConnection>
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-gc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("gc.sqlite").path
        let connection = ConfinedConnection(name: "test.writer", engine: .sqlite) { () throws(StoreError) in
            try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 5000)
        }
        let writes = SQLiteWriteQueue(
            connection: connection, slowBatchMilliseconds: threshold, onSlowBatch: { reports.append($0) })
        return (writes, connection)
    }

    @Test func aBatchThatWaitedIsReportedAsWaitingInItsStatements() async throws {
        let reports = Reports()
        let (writes, connection) = try queue(threshold: 0, reports)
        let gate = WriterGate()
        // The first write sleeps inside its statements until the three queued behind it are in.
        let held = await block(gate) { gate in
            try await writes.write("hold", transaction: false) { _ throws(StoreError) in gate.hold() }
        }
        let queued = (0..<3).map { index in
            Task { try await writes.write("w\(index)", transaction: true) { _ throws(StoreError) in index } }
        }
        while writes.queuedWrites < 3 { await Task.yield() }
        gate.release()
        try await held.value
        for task in queued { _ = try await task.value }
        let housekeeping = try await writes.write("purge", transaction: false, housekeeping: true) {
            _ throws(StoreError) in 1
        }
        #expect(housekeeping == 1)

        let all = reports.all
        #expect(all.map(\.writes) == [1, 3, 1])
        #expect(all.map(\.housekeeping) == [false, false, true])
        let waited = try #require(all.first)
        // The thread slept in the held write's statements: a wait, not CPU.
        #expect(waited.waits >= 1)
        #expect(waited.cpuMilliseconds <= waited.milliseconds + 0.01)
        for report in all {
            let steps = report.beginMilliseconds + report.statementsMilliseconds + report.commitMilliseconds
            #expect(steps <= report.milliseconds + 0.01 && steps > 0, "\(report)")
        }
        #expect(waited.logFields["waits"] == .int(waited.waits))
        await connection.close()
    }

    @Test func aBatchUnderTheThresholdIsNotReported() async throws {
        let reports = Reports()
        // A second: no single-row write on a fresh file comes near it.
        let (writes, connection) = try queue(threshold: 1000, reports)
        _ = try await writes.write("w", transaction: false) { _ throws(StoreError) in 1 }
        #expect(reports.all.isEmpty)
        await connection.close()
    }
}
