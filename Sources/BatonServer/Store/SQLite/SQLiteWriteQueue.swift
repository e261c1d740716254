import BatonHTTP
import Synchronization

/// The SQLite writer with group commit: writes that queue up while one transaction runs share the next one.
///
/// Every commit pays the same fixed cost whatever it changed: the file locks (`fcntl`, several per transaction), a
/// WAL frame write for every page it touched (the rate-limit bucket's and the index's pages again and again), the
/// wal-index update, and a hop to the writer's thread. A share made three such commits, and that was most of its
/// store CPU. Here a write joins a queue. The first write to find no batch running starts a drain: on the
/// connection's thread it takes what is queued (at most ``maximumBatch``), runs it in one `BEGIN IMMEDIATE` …
/// `COMMIT`, wakes its writers, and, while writes queued meanwhile, runs the next batch there as a job of its own
/// (``ConfinedConnection/runRepeating(_:_:)``). No task is woken just to lead a batch: handing the lead to the next
/// queued write cost two thread hops between batches, paid by the writes that arrived together at light load.
///
/// Each write keeps its own semantics: one with `transaction` runs inside a `SAVEPOINT`, so its failure undoes only
/// its own statements; without, each statement is atomic by itself, as in autocommit. No write returns before the
/// `COMMIT` that holds it has succeeded: if that fails, every write of the batch fails with its error, and if an
/// error ends the transaction early (SQLite rolls back on some I/O errors), every write already run in it fails too.
/// Durability is unchanged: with `synchronous=NORMAL` in WAL mode no commit syncs, batched or not.
///
/// The writer is a role, the exclusive use of the write connection, not only a thread. A write made on an event loop's
/// thread that has nothing else queued (``runsInline``), while the writer has been idle for ``inlineAfterIdle``, takes
/// the role and runs there, in a transaction of its own, instead of waking the writer's thread and being woken back:
/// at light load, where nothing batches anyway, that was two thread hops per write. It never waits on the loop: its
/// `BEGIN IMMEDIATE` does not wait for another connection's lock (another process's writer, a `TRUNCATE` checkpoint),
/// and if that is busy, or the connection is in use or not yet open, the write queues as any other. Writes that
/// arrive while it runs queue, and the writer's thread takes them over when it ends. Under load writes keep batching:
/// a writer busy less than ``inlineAfterIdle`` ago, or a loop with other work queued, sends the write to the queue.
/// Housekeeping writes never run inline.
///
/// Housekeeping writes (``write(_:transaction:housekeeping:_:)`` with `housekeeping`, the purge's batches) wait in a
/// queue of their own: one runs, alone in its transaction, only when no other write is queued. A claim queued behind
/// a purge batch runs before the next one and never commits in the same transaction as one, so it waits for at most
/// the batch already running, however long the purge. So that a writer never idle under load cannot starve the
/// purge, one housekeeping write also runs after ``housekeepingEvery`` batches in a row have passed it by.
final class SQLiteWriteQueue: Sendable {
    /// The most writes one transaction holds, so that no write waits behind an unbounded batch.
    let maximumBatch: Int
    /// Batches of other writes that may run while a housekeeping write waits, before it goes next (how 2 was chosen:
    /// docs/reliability-history.md, issue 32, "The purge (item 5)").
    let housekeepingEvery: Int
    /// A batch that holds the writer this long is reported to `onSlowBatch`: a tap's whole budget at the p99 goal.
    let slowBatchMilliseconds: Double
    private let onSlowBatch: (@Sendable (SQLiteSlowWrite) -> Void)?
    /// How long the writer must have been idle before a write may run on its caller's thread (``runsInline``).
    let inlineAfterIdle: Duration
    private let inlineAfterIdleNanoseconds: Int64
    private let connection: ConfinedConnection<SQLiteConnection>
    private let state = Mutex(State())
    private let committed = Atomic(0)
    private let ranInline = Atomic(0)
    private let foundBusy = Atomic(0)
    /// Whether a write may run on the calling thread when the writer is idle: an event loop's thread with nothing
    /// else queued.
    private let runsInline: @Sendable () -> Bool

    /// - Parameters:
    ///   - onSlowBatch: called on the thread that ran it for each batch that held the writer at least
    ///     `slowBatchMilliseconds` (then each batch costs one `getrusage` more).
    ///   - runsInline: whether the calling thread may run a write itself (`nil`: never).
    init(
        connection: ConfinedConnection<SQLiteConnection>, maximumBatch: Int = 128, housekeepingEvery: Int = 2,
        slowBatchMilliseconds: Double = 20, onSlowBatch: (@Sendable (SQLiteSlowWrite) -> Void)? = nil,
        inlineAfterIdle: Duration = .microseconds(100),
        runsInline: (@Sendable () -> Bool)? = { eventLoopHasNothingQueued }
    ) {
        self.connection = connection
        self.maximumBatch = max(1, maximumBatch)
        self.housekeepingEvery = max(1, housekeepingEvery)
        self.slowBatchMilliseconds = slowBatchMilliseconds
        self.onSlowBatch = onSlowBatch
        self.inlineAfterIdle = inlineAfterIdle
        let (seconds, attoseconds) = inlineAfterIdle.components
        inlineAfterIdleNanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        self.runsInline = runsInline ?? { false }
    }

    /// Transactions committed so far (for tests: fewer than the writes when they were batched).
    var commits: Int { committed.load(ordering: .relaxed) }

    /// Writes run on their caller's thread so far (for tests).
    var inlineWrites: Int { ranInline.load(ordering: .relaxed) }

    /// Writes that tried to run on their caller's thread and queued because the database was locked (for tests).
    var inlineWritesFoundBusy: Int { foundBusy.load(ordering: .relaxed) }

    /// Writes waiting for a batch now (for tests).
    var queuedWrites: Int { state.withLock { $0.queued.count + $0.housekeeping.count } }

    /// Runs `body` in the next batch; returns once the transaction that holds it has committed. A `housekeeping`
    /// write runs in a transaction of its own once no other write is queued.
    func write<T: Sendable>(
        _ operation: String, transaction: Bool, housekeeping: Bool = false,
        _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        let outcome = Outcome<T>()
        let entry = Entry(
            transaction: transaction,
            work: { session throws(StoreError) in outcome.succeed(try body(session)) },
            fail: { error in outcome.fail(error) })
        if !housekeeping, runsInline(), runHere(entry) { return try outcome.result(operation) }
        let leads = await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
            let starts = state.withLock { state in
                let starts = !state.draining
                state.draining = true
                if housekeeping {
                    // Never leads: a write queued before the drain runs goes first, so it waits for its own batch.
                    state.housekeeping.append(Queued(entry: entry, waiter: continuation))
                } else {
                    state.queued.append(Queued(entry: entry, waiter: starts ? nil : continuation))
                }
                return starts
            }
            guard starts else { return }
            if housekeeping {
                connection.startRepeating(operation) { session in self.drain(session) }
            } else {
                continuation.resume(returning: true)
            }
        }
        if leads {
            // Runs the batch holding this write on the writer's thread; batches queued meanwhile follow there as
            // jobs of their own, without waking a task to lead them, while this caller returns.
            await connection.runRepeating(operation) { session in self.drain(session) }
        }
        return try outcome.result(operation)
    }

    // MARK: - Private

    private struct Entry: Sendable {
        let transaction: Bool
        let work: @Sendable (SQLiteConnection) throws(StoreError) -> Void
        let fail: @Sendable (StoreError) -> Void
    }

    private struct Queued {
        let entry: Entry
        /// Whom to wake when it settles; `nil` for the write that started the drain (it is awake).
        var waiter: UnsafeContinuation<Bool, Never>?
    }

    private struct State {
        var queued: [Queued] = []
        /// Housekeeping writes, each run alone once `queued` is empty.
        var housekeeping: [Queued] = []
        /// Batches run in a row while a housekeeping write waited.
        var passedBy = 0
        /// The writer's role is taken: batches are running (or about to) on the writer's thread, or a write runs on
        /// its caller's; a new write only joins the queue.
        var draining = false
        /// When the role was last given up (monotonic nanoseconds).
        var idleSince: Int64 = 0
    }

    /// Takes the writer's role if it is free and has been for ``inlineAfterIdle``, and runs `entry` on this thread in a
    /// transaction of its own. Returns `false` if it did not run (the role is taken or was lately, the connection is
    /// not free or not open, or another connection holds the database's lock): then it queues.
    private func runHere(_ entry: Entry) -> Bool {
        let takes = state.withLock { state in
            guard !state.draining, MonotonicTime.nanoseconds() - state.idleSince >= inlineAfterIdleNanoseconds else {
                return false
            }
            state.draining = true
            return true
        }
        guard takes else { return false }
        let ran =
            connection.runHere { session in
                var clock = PhaseClock(measuring: onSlowBatch != nil)
                do throws(StoreError) {
                    try session.executeWithoutWaiting(SQLDialect.sqlite.beginWrite)
                } catch {
                    if error.code == .busy { foundBusy.add(1, ordering: .relaxed) }
                    return false
                }
                clock.spent(\.begin)
                runTransactions([entry][...], on: session, begun: true, clock: &clock)
                report(clock, writes: 1, housekeeping: false)
                return true
            } ?? false
        if ran { ranInline.add(1, ordering: .relaxed) }
        // Writes queued meanwhile found the role taken and only joined the queue: hand them to the writer's thread.
        let handOver = state.withLock { state in
            if state.queued.isEmpty, state.housekeeping.isEmpty { giveUpRole(&state) }
            return state.draining
        }
        if handOver { connection.startRepeating("write") { session in self.drain(session) } }
        return ran
    }

    private func giveUpRole(_ state: inout State) {
        state.draining = false
        state.idleSince = MonotonicTime.nanoseconds()
    }

    /// On the writer's thread: runs the next batch, or fails everything queued if the connection cannot be had.
    /// Returns whether more writes are queued (another batch follows on this thread).
    private func drain(_ session: Result<SQLiteConnection, StoreError>) -> Bool {
        switch session {
        case .success(let session):
            return runBatch(session)
        case .failure(let error):
            // The connection is closed or cannot be opened: nothing queued can run now.
            let queued = state.withLock { state in
                giveUpRole(&state)
                defer {
                    state.queued.removeAll()
                    state.housekeeping.removeAll()
                }
                return state.queued + state.housekeeping
            }
            for item in queued {
                item.entry.fail(error)
                item.waiter?.resume(returning: false)
            }
            return false
        }
    }

    private func runBatch(_ session: SQLiteConnection) -> Bool {
        var clock = PhaseClock(measuring: onSlowBatch != nil)
        var housekeeping = false
        let batch = state.withLock { state in
            // Queued writes go before the next housekeeping write (which never shares their transaction), unless it
            // has waited `housekeepingEvery` batches already.
            if state.housekeeping.isEmpty || (!state.queued.isEmpty && state.passedBy < housekeepingEvery) {
                if !state.housekeeping.isEmpty { state.passedBy += 1 }
                let count = min(maximumBatch, state.queued.count)
                defer { state.queued.removeFirst(count) }
                return Array(state.queued.prefix(count))
            }
            state.passedBy = 0
            housekeeping = true
            return [state.housekeeping.removeFirst()]
        }
        runTransactions(batch.map(\.entry)[...], on: session, begun: false, clock: &clock)
        report(clock, writes: batch.count, housekeeping: housekeeping)
        let more = state.withLock { state in
            if state.queued.isEmpty, state.housekeeping.isEmpty { giveUpRole(&state) }
            return state.draining
        }
        for item in batch { item.waiter?.resume(returning: false) }
        return more
    }

    /// Runs `pending` in as few transactions as it takes (a write whose error ended the transaction fails those run
    /// before it in it; the rest go on in the next), the first already begun if `begun`, and commits each.
    private func runTransactions(
        _ pending: ArraySlice<Entry>, on session: SQLiteConnection, begun: Bool, clock: inout PhaseClock
    ) {
        var pending = pending
        var begun = begun
        while !pending.isEmpty {
            if !begun {
                do {
                    try session.execute(SQLDialect.sqlite.beginWrite)
                    clock.spent(\.begin)
                } catch {
                    for entry in pending { entry.fail(error) }
                    break
                }
            }
            begun = false
            var ran = 0
            var lost: StoreError?
            for entry in pending {
                ran += 1
                if let error = run(entry, on: session), !session.isInTransaction {
                    lost = error
                    break
                }
            }
            let done = pending.prefix(ran)
            pending = pending.dropFirst(ran)
            clock.spent(\.statements)
            if let lost {
                for entry in done { entry.fail(lost) }
                continue
            }
            do {
                try session.execute("COMMIT")
                committed.add(1, ordering: .relaxed)
            } catch {
                try? session.execute("ROLLBACK")
                for entry in done { entry.fail(error) }
            }
            clock.spent(\.commit)
        }
    }

    /// Tells `onSlowBatch` of a batch that held the writer at least ``slowBatchMilliseconds``.
    private func report(_ clock: PhaseClock, writes: Int, housekeeping: Bool) {
        guard let started = clock.started, let onSlowBatch else { return }
        // The clock first (vDSO): the kernel's counts only for a batch that was slow.
        guard Double(MonotonicTime.nanoseconds() - started.nanoseconds) / 1e6 >= slowBatchMilliseconds else { return }
        let end = WriterThreadSample.now()
        onSlowBatch(started.report(until: end, writes: writes, housekeeping: housekeeping, phases: clock.phases))
    }

    /// One write inside the open transaction; returns its error, if it failed.
    private func run(_ entry: Entry, on session: SQLiteConnection) -> StoreError? {
        guard entry.transaction else {
            do {
                try entry.work(session)
                return nil
            } catch {
                entry.fail(error)
                return error
            }
        }
        do {
            try session.execute("SAVEPOINT write")
            try entry.work(session)
            try session.execute("RELEASE write")
            return nil
        } catch {
            if session.isInTransaction {
                try? session.execute("ROLLBACK TO write")
                try? session.execute("RELEASE write")
            }
            entry.fail(error)
            return error
        }
    }
}

/// Nanoseconds a batch spends in each step, measured only while slow batches are reported.
private struct PhaseClock {
    let started: WriterThreadSample?
    var phases: (begin: Int64, statements: Int64, commit: Int64) = (0, 0, 0)
    private var mark: Int64

    init(measuring: Bool) {
        started = measuring ? WriterThreadSample.now() : nil
        mark = started?.nanoseconds ?? 0
    }

    /// Adds the time since the last step to `phase`.
    mutating func spent(_ phase: WritableKeyPath<(begin: Int64, statements: Int64, commit: Int64), Int64>) {
        guard started != nil else { return }
        let now = MonotonicTime.nanoseconds()
        phases[keyPath: phase] += now - mark
        mark = now
    }
}

/// A write's result, set on the writer's thread before its caller is woken.
private final class Outcome<T: Sendable>: Sendable {
    private let value = Mutex<Result<T, StoreError>?>(nil)

    func succeed(_ result: T) { value.withLock { $0 = .success(result) } }

    func fail(_ error: StoreError) { value.withLock { $0 = .failure(error) } }

    func result(_ operation: String) throws(StoreError) -> T {
        guard let result = value.withLock({ $0 }) else {
            throw StoreError(.engineFailure, engine: .sqlite, operation: operation)
        }
        return try result.get()
    }
}
