import Foundation
import Synchronization
import Testing

@testable import BatonServer

/// Runs each job on a thread of its own: a task preferring it may block its thread without holding up the test.
private final class ThreadPerJobExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}

/// Stands in for "on an event loop's thread": says yes to every write that asks, and remembers the threads that asked.
private final class InlineCallers: Sendable {
    private let askers = Mutex<Set<pthread_t>>([])

    func ask() -> Bool {
        askers.withLock { _ = $0.insert(pthread_self()) }
        return true
    }

    /// Whether the calling thread asked to run a write inline.
    var callingThreadAsked: Bool { askers.withLock { $0.contains(pthread_self()) } }
}

/// A write made on an event loop's thread while the writer is idle runs there (the writer is a role, not a thread);
/// otherwise it queues, and the writer's thread takes over what queued meanwhile.
@Suite("SQLite writes on the calling thread when the writer is idle")
struct SQLiteWriteQueueInlineTests {
    private let callers = InlineCallers()
    private let path: String
    private let connection: ConfinedConnection<SQLiteConnection>
    private let writes: SQLiteWriteQueue

    init() throws { try self.init(inlineAfterIdle: .zero) }

    /// `inlineAfterIdle`: how long the writer must have been idle; zero here unless a test is about it.
    private init(inlineAfterIdle: Duration) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-gc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("gc.sqlite").path
        self.path = path
        connection = ConfinedConnection(name: "test.writer", engine: .sqlite) { () throws(StoreError) in
            try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 5000)
        }
        writes = SQLiteWriteQueue(connection: connection, inlineAfterIdle: inlineAfterIdle, runsInline: callers.ask)
    }

    /// Creates the table `t`: the connection is not open yet, so this first write queues and opens it.
    private func createTable() async throws {
        try await writes.write("create", transaction: false) { session throws(StoreError) in
            _ = try session.query("CREATE TABLE t (id TEXT PRIMARY KEY)", [])
        }
        #expect(writes.inlineWrites == 0)
    }

    /// Inserts `id`; returns whether the write ran on a thread that asked to run it inline.
    private func insert(_ id: String) async throws -> Bool {
        try await writes.write("insert", transaction: false) { session throws(StoreError) in
            _ = try session.query("INSERT INTO t (id) VALUES ($1)", [.text(id)])
            return callers.callingThreadAsked
        }
    }

    private func ids() async throws -> [String] {
        let rows = try await connection.run("ids") { session throws(StoreError) in
            try session.query("SELECT id FROM t ORDER BY id", [])
        }
        return try rows.map { try $0.text(0) }
    }

    @Test func aWriteOnAnIdleWriterRunsOnTheCallingThreadWithItsOwnOutcome() async throws {
        try await createTable()
        let commits = writes.commits
        #expect(try await insert("a"))
        #expect(writes.inlineWrites == 1)
        #expect(writes.commits == commits + 1)
        // A failed transaction rolls back, and its error reaches the caller as from the writer's thread.
        await #expect(throws: StoreError(.engineFailure, engine: .sqlite, operation: "test")) {
            try await writes.write("fails", transaction: true) { session throws(StoreError) in
                _ = try session.query("INSERT INTO t (id) VALUES ($1)", [.text("undone")])
                throw StoreError(.engineFailure, engine: .sqlite, operation: "test")
            }
        }
        await #expect { try await insert("a") } throws: { ($0 as? StoreError)?.code == .constraintViolation }
        #expect(writes.inlineWrites == 3)
        #expect(try await ids() == ["a"])
        await connection.close()
    }

    @Test func writesQueuedWhileAnInlineWriteRunsAreTakenOverByTheWritersThreadAndBatch() async throws {
        try await createTable()
        let gate = WriterGate()
        // The inline write holds the role on a thread of its own; two writes arrive meanwhile and queue.
        let held = await block(gate) { gate in
            try await Task(executorPreference: ThreadPerJobExecutor()) {
                try await writes.write("hold", transaction: false) { _ throws(StoreError) in gate.hold() }
            }.value
        }
        let queued = [Task { try await insert("b") }, Task { try await insert("c") }]
        while writes.queuedWrites < 2 { await Task.yield() }
        gate.release()
        try await held.value
        // Nobody else will write again: the writer's thread must take the queued writes over, or they wait forever.
        let deadline = ContinuousClock.now + .seconds(5)
        while writes.queuedWrites > 0, ContinuousClock.now < deadline { await Task.yield() }
        try #require(writes.queuedWrites == 0)
        for write in queued { #expect(try await write.value == false) }
        #expect(writes.inlineWrites == 1)
        #expect(try await insert("d"))
        #expect(writes.inlineWrites == 2)
        #expect(try await ids() == ["b", "c", "d"])
        await connection.close()
    }

    @Test func aWriteSoonAfterTheWriterWasBusyQueuesSoThatWritesUnderLoadBatch() async throws {
        // Idle for a minute at least: never within a test. (The other tests, at zero, show the write runs inline.)
        let suite = try SQLiteWriteQueueInlineTests(inlineAfterIdle: .seconds(60))
        try await suite.createTable()
        // The writer's thread just ran the table's creation: these writes join the queue (run inline at saturation,
        // one commit per write cost a third more CPU than batches).
        #expect(try await suite.insert("a") == false)
        #expect(try await suite.insert("b") == false)
        #expect(suite.writes.inlineWrites == 0)
        await suite.connection.close()
    }

    @Test func aWriteOffAnEventLoopNeverRunsInline() async throws {
        let connection = self.connection
        let writes = SQLiteWriteQueue(connection: connection, inlineAfterIdle: .zero)
        try await createTable()
        // Off an event loop: never inline.
        _ = try await writes.write("off a loop", transaction: false) { session throws(StoreError) in
            _ = try session.query("INSERT INTO t (id) VALUES ($1)", [.text("a")])
        }
        #expect(writes.inlineWrites == 0)
        await connection.close()
    }

    @Test func aWriteThatFindsTheDatabaseLockedQueuesWithoutWaitingOnItsThread() async throws {
        try await createTable()
        let other = try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 5000)
        try other.execute("BEGIN IMMEDIATE")
        let write = Task { try await insert("d") }
        // Within the 5 s busy timeout: the inline attempt gave up at once (waiting, it ran on this thread after COMMIT).
        let deadline = ContinuousClock.now + .seconds(2)
        while writes.inlineWritesFoundBusy == 0, ContinuousClock.now < deadline { await Task.yield() }
        #expect(writes.inlineWritesFoundBusy == 1)
        try other.execute("COMMIT")
        #expect(try await write.value == false)
        #expect(writes.inlineWrites == 0)
        other.close()
        await connection.close()
    }

    @Test func aHousekeepingWriteNeverRunsInline() async throws {
        try await createTable()
        let inline = try await writes.write("purge", transaction: false, housekeeping: true) { _ throws(StoreError) in
            callers.callingThreadAsked
        }
        #expect(!inline)
        #expect(writes.inlineWrites == 0)
        await connection.close()
    }
}
