import BatonHTTP
import Foundation
import Synchronization

/// The embedded store: one SQLite file in WAL mode.
///
/// One writer connection runs every write, one at a time: on its own thread, writes that arrive together in one
/// `BEGIN IMMEDIATE` transaction (``SQLiteWriteQueue``: group commit), each read-modify-write in a savepoint of its
/// own; a lone write at light load on the event loop that made it, when the writer is idle. Read-only connections (each on its own thread) serve reads concurrently. Several processes may share the
/// file: `BEGIN IMMEDIATE` with `busy_timeout` serialises their writers. For several backend instances on
/// several hosts, use ``PostgresStore``.
public enum SQLiteStore {
    /// Opens (creating if needed) the database at `path` and applies pending migrations. A missing folder is
    /// created with mode 0700 (the database holds sealed journey responses and user ids).
    ///
    /// - Parameters:
    ///   - readers: read-only connections for reads (0 sends reads to the writer).
    ///   - busyTimeout: how long a write waits for another process's lock before failing with `.busy`.
    ///   - slowWrites: told, on the writer's thread, of each batch of writes that held the one writer 20 ms or more
    ///     (``SQLiteSlowWrite``); keep it short (`baton serve` logs a line).
    public static func open(
        path: String, readers: Int = 2, busyTimeout: Duration = .seconds(5),
        slowWrites: (@Sendable (SQLiteSlowWrite) -> Void)? = nil
    ) async throws -> some Store {
        try StoreFolder.prepare(forDatabaseAt: path)
        let milliseconds = Int32(clamping: busyTimeout.components.seconds * 1000)
        let engine = SQLiteEngine(
            path: path, readers: readers, busyTimeoutMilliseconds: milliseconds, slowWrites: slowWrites)
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

    init(
        path: String, readers readerCount: Int, busyTimeoutMilliseconds: Int32,
        slowWrites: (@Sendable (SQLiteSlowWrite) -> Void)? = nil
    ) {
        let checkpointer = SQLiteCheckpointer(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        self.checkpointer = checkpointer
        writer = ConfinedConnection(name: "baton.sqlite.writer", engine: .sqlite) { () throws(StoreError) in
            try SQLiteConnection(
                path: path, readOnly: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                afterCommit: checkpointer.committed)
        }
        // For A/Bs of one binary: BATON_SQLITE_INLINE=0 keeps every write on the writer's thread.
        let environment = ProcessInfo.processInfo.environment
        let idle = Int(environment["BATON_SQLITE_INLINE_IDLE_US"] ?? "") ?? 100
        let runsInline: (@Sendable () -> Bool)? =
            environment["BATON_SQLITE_INLINE"] == "0" ? nil : { @Sendable in eventLoopHasNothingQueued }
        writes = SQLiteWriteQueue(
            connection: writer, onSlowBatch: slowWrites, inlineAfterIdle: .microseconds(idle), runsInline: runsInline)
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
            guard try session.changed(StoreSQL.rateLimitToken, tokenArguments) else {
                return .limited(retryAfterSeconds: try take.retryAfter(now: now, session: session, engine: .sqlite))
            }
            return try session.changed(StoreSQL.claimInsert, insertArguments) ? .claimed : .exists
        }
    }

    func housekeepingWrite<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        // A running checkpoint catches up first (for at most a second): a purge writing batch after batch outran it,
        // the WAL grew to the checkpointer's `truncateAbove`, and the TRUNCATE checkpoint then held every write at
        // once (docs/reliability-history.md, issue 32, "The purge (item 5)").
        var waits = 0
        while checkpointer.isRunning, waits < 200 {
            try? await Task.sleep(for: .milliseconds(5))
            waits += 1
        }
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
/// share endpoint's p99 on SQLite. Here the writer's commit only reports the WAL's size; past ``threshold`` pages a
/// `PASSIVE` checkpoint runs on the checkpointer's thread, concurrently with further commits. The WAL starts over at
/// the first commit after a checkpoint has caught up.
///
/// Until it does, every commit starts a checkpoint of the pages committed while the last one ran, each syncing two
/// files: the threshold is 4,000 pages (16 MiB), not SQLite's 1,000, so that chase starts a quarter as often. That
/// took the checkpointer's CPU from 23 to 14 µs per share at 64 connections and from 32 to 20 µs at ~1,000 shares/s
/// (docs/reliability-history.md, issue 32, seventh pass). Should the WAL still grow past ``truncateAbove`` pages (a
/// writer that never pauses), a `TRUNCATE` checkpoint waits for the writer once and empties it.
final class SQLiteCheckpointer: Sendable {
    /// WAL pages that start a checkpoint.
    let threshold: Int
    /// WAL pages past which the checkpoint also empties the WAL, briefly holding up the writer.
    let truncateAbove: Int
    private let connection: ConfinedConnection<SQLiteConnection>
    private let running = Atomic(false)
    private let completed = Atomic(0)

    init(path: String, busyTimeoutMilliseconds: Int32, threshold: Int = 4000, truncateAbove: Int = 50_000) {
        self.threshold = threshold
        self.truncateAbove = truncateAbove
        connection = ConfinedConnection(name: "baton.sqlite.checkpointer", engine: .sqlite) {
            () throws(StoreError) in
            try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
    }

    /// Checkpoints run so far (for tests).
    var checkpoints: Int { completed.load(ordering: .relaxed) }

    /// Whether a checkpoint is running now (a purge batch waits it out: ``SQLiteEngine/housekeepingWrite(_:_:)``).
    var isRunning: Bool { running.load(ordering: .acquiring) }

    /// Called by the writer's connection after each commit, on the writer's thread: starts at most one checkpoint.
    @Sendable func committed(walPages: Int) {
        guard walPages >= threshold, !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let truncate = walPages >= truncateAbove
        connection.start("checkpoint") { session throws(StoreError) in
            try session.checkpoint(truncate: truncate)
        } done: { [self] in
            completed.add(1, ordering: .relaxed)
            running.store(false, ordering: .releasing)
        }
    }

    func close() async { await connection.close() }
}
