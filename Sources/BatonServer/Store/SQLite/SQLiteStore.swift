import Foundation
import Synchronization

/// The embedded store: one SQLite file in WAL mode.
///
/// One writer connection runs every write on its own thread, writes that arrive together in one `BEGIN IMMEDIATE`
/// transaction (``SQLiteWriteQueue``: group commit), each read-modify-write in a savepoint of its own;
/// read-only connections (each on its own thread) serve reads concurrently. Several processes may share the
/// file: `BEGIN IMMEDIATE` with `busy_timeout` serialises their writers. For several backend instances on
/// several hosts, use ``PostgresStore``.
public enum SQLiteStore {
    /// Opens (creating if needed) the database at `path` and applies pending migrations. A missing folder is
    /// created with mode 0700 (the database holds sealed journey responses and user ids).
    ///
    /// - Parameters:
    ///   - readers: read-only connections for reads (0 sends reads to the writer).
    ///   - busyTimeout: how long a write waits for another process's lock before failing with `.busy`.
    public static func open(
        path: String, readers: Int = 2, busyTimeout: Duration = .seconds(5)
    ) async throws -> some Store {
        try StoreFolder.prepare(forDatabaseAt: path)
        let milliseconds = Int32(clamping: busyTimeout.components.seconds * 1000)
        let engine = SQLiteEngine(path: path, readers: readers, busyTimeoutMilliseconds: milliseconds)
        do {
            try await engine.write("migrate", transaction: true) { session throws(StoreError) in
                try SQLSchema.migrate(session, dialect: .sqlite)
            }
        } catch {
            await engine.close()
            throw error
        }
        return SQLStore(engine: engine)
    }
}

/// Runs the shared store logic on SQLite connections confined to their own threads.
final class SQLiteEngine: SQLEngine {
    private let writer: ConfinedConnection<SQLiteConnection>
    /// Runs the writes on `writer`, batched.
    let writes: SQLiteWriteQueue
    private let readers: [ConfinedConnection<SQLiteConnection>]
    private let checkpointer: SQLiteCheckpointer
    private let nextReader = Atomic<Int>(0)

    var dialect: SQLDialect { .sqlite }

    init(path: String, readers readerCount: Int, busyTimeoutMilliseconds: Int32) {
        let checkpointer = SQLiteCheckpointer(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        self.checkpointer = checkpointer
        writer = ConfinedConnection(name: "baton.sqlite.writer", engine: .sqlite) { () throws(StoreError) in
            try SQLiteConnection(
                path: path, readOnly: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                afterCommit: checkpointer.committed)
        }
        writes = SQLiteWriteQueue(connection: writer)
        readers = (0..<max(0, readerCount)).map { index in
            ConfinedConnection(name: "baton.sqlite.reader\(index)", engine: .sqlite) { () throws(StoreError) in
                try SQLiteConnection(path: path, readOnly: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            }
        }
    }

    func write<T: Sendable>(
        _ operation: String, transaction: Bool, _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        try await writes.write(operation, transaction: transaction, body)
    }

    /// Both statements in one write on the writer's thread: the token, then the insert only if it was taken.
    func takeTokenThenInsertClaim(
        _ take: RateLimitTake, claim: [SQLValue], now: Date
    ) async throws(StoreError) -> TokenThenClaim {
        let tokenArguments = take.arguments(now: now)
        let insertArguments = claim + [.time(now)]
        return try await writes.write("takeRateLimitTokenAndClaim", transaction: false) {
            session throws(StoreError) -> TokenThenClaim in
            guard try !session.query(StoreSQL.rateLimitToken, tokenArguments).isEmpty else {
                return .limited(retryAfterSeconds: try take.retryAfter(now: now, session: session, engine: .sqlite))
            }
            return try session.query(StoreSQL.claimInsert, insertArguments).isEmpty ? .exists : .claimed
        }
    }

    func housekeepingWrite<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        // The checkpoints keep up first: a purge writing batch after batch outran them, the WAL grew to the
        // checkpointer's `truncateAbove`, and each TRUNCATE checkpoint then held every write at once
        // (docs/notes/i-purge.md).
        await checkpointer.housekeepingMayWrite(waitingAtMost: .seconds(1))
        return try await writes.write(operation, transaction: false, housekeeping: true, body)
    }

    func read<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        guard !readers.isEmpty else { return try await writer.run(operation) { s throws(StoreError) in try body(s) } }
        let index = nextReader.add(1, ordering: .relaxed).newValue % readers.count
        return try await readers[index].run(operation) { s throws(StoreError) in try body(s) }
    }

    func close() async {
        for reader in readers { await reader.close() }
        await writer.close()
        await checkpointer.close()
    }
}

/// Checkpoints the WAL on a connection and thread of its own, so that no commit pays for it.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses 1,000 WAL pages: that commit (and every request
/// queued behind the one writer) waits while ~4 MB are copied and the file is synced twice, which was most of the
/// share endpoint's p99 on SQLite. Here the writer's commit only reports the WAL's size, and a checkpoint runs on the
/// checkpointer's thread, concurrently with further commits (``SQLiteCheckpointSchedule`` decides when and how).
/// Housekeeping writes wait for the checkpoints to keep up (``housekeepingMayWrite(waitingAtMost:)``).
final class SQLiteCheckpointer: Sendable {
    private let connection: ConfinedConnection<SQLiteConnection>
    private let state: Mutex<State>
    private let completed = Atomic(0)

    private struct State {
        var schedule: SQLiteCheckpointSchedule
        /// Housekeeping writes waiting for ``SQLiteCheckpointSchedule/housekeepingMayWrite``.
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
        var closed = false

        /// The waiters to wake now, removed.
        mutating func wakeable() -> [CheckedContinuation<Void, Never>] {
            guard schedule.housekeepingMayWrite || closed, !waiters.isEmpty else { return [] }
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
    }

    /// - Parameters:
    ///   - threshold: WAL pages that start a checkpoint (SQLite's own default for its automatic one).
    ///   - housekeepingLimit: WAL pages (~16 MiB) from which housekeeping writes wait for a checkpoint to catch up.
    ///   - truncateAbove: WAL pages past which a checkpoint also empties the file (a WAL that could not start over).
    init(
        path: String, busyTimeoutMilliseconds: Int32, threshold: Int = 1000, housekeepingLimit: Int = 4000,
        truncateAbove: Int = 50_000
    ) {
        state = Mutex(
            State(
                schedule: SQLiteCheckpointSchedule(
                    threshold: threshold, housekeepingLimit: housekeepingLimit, truncateAbove: truncateAbove)))
        connection = ConfinedConnection(name: "baton.sqlite.checkpointer", engine: .sqlite) {
            () throws(StoreError) in
            try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
    }

    /// Checkpoints run so far (for tests).
    var checkpoints: Int { completed.load(ordering: .relaxed) }

    /// Whether a checkpoint is running now (for tests).
    var isRunning: Bool { state.withLock { $0.schedule.running } }

    /// Whether a housekeeping write may run now (for tests).
    var housekeepingMayWriteNow: Bool { state.withLock { $0.schedule.housekeepingMayWrite } }

    /// Called by the writer's connection after each commit, on the writer's thread: starts at most one checkpoint.
    @Sendable func committed(walPages: Int) {
        let (mode, woken) = state.withLock { state in
            (state.schedule.committed(walFrames: walPages), state.wakeable())
        }
        for waiter in woken { waiter.resume() }
        if let mode { Task { await run(mode) } }
    }

    /// Returns once a housekeeping write may run (no checkpoint running, the WAL below `housekeepingLimit`), or after
    /// `limit` (so that a WAL that cannot start over delays a purge, never stops it).
    func housekeepingMayWrite(waitingAtMost limit: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = state.withLock { state -> Int? in
                guard !state.schedule.housekeepingMayWrite, !state.closed else { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let waiter else { return continuation.resume() }
            Task { [self] in
                try? await Task.sleep(for: limit)
                state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume()
            }
        }
    }

    func close() async {
        let woken = state.withLock { state in
            state.closed = true
            return state.wakeable()
        }
        for waiter in woken { waiter.resume() }
        await connection.close()
    }

    /// Runs the checkpoint `mode` on the checkpointer's thread, and the next one at once if the schedule says so.
    private func run(_ first: SQLiteCheckpointSchedule.Mode) async {
        var mode: SQLiteCheckpointSchedule.Mode? = first
        while let current = mode {
            let frames = try? await connection.run("checkpoint") { session throws(StoreError) in
                try session.checkpoint(current)
            }
            completed.add(1, ordering: .relaxed)
            let woken: [CheckedContinuation<Void, Never>]
            (mode, woken) = state.withLock { state in
                (state.schedule.finished(current, copied: frames?.copied, of: frames?.log), state.wakeable())
            }
            for waiter in woken { waiter.resume() }
        }
    }
}
