import BatonCore
import BatonHTTP
import Foundation
import Synchronization

/// The shared store for several backend instances: PostgreSQL through libpq.
///
/// Single statements go out on non-blocking pipelined connections (no thread hop per statement); transactions run
/// on a small pool of connections, each confined to its own thread (blocking libpq calls never touch the
/// cooperative pool). Statements are prepared once per connection. Claims insert with `ON CONFLICT DO NOTHING`
/// and lock the existing row with `SELECT … FOR UPDATE`; webhook work is handed out with `FOR UPDATE SKIP LOCKED`;
/// job leases are rows taken with one atomic upsert, so they survive pooling and lapse on their own if an
/// instance dies (a session advisory lock would be tied to one pooled connection and never time out).
public enum PostgresStore {
    /// Connects to `url` (a `postgres://` URI or libpq connection string) and applies pending migrations.
    ///
    /// - Parameters:
    ///   - schema: keep every table in this schema (created if missing); `nil` uses the server's search path.
    ///     Lowercase letters, digits and `_` only.
    ///   - poolSize: connections (and threads) in the pool.
    ///   - password: the password (`BATON_DATABASE_PASSWORD`), overriding any in `url`; `nil` leaves it to the URL or
    ///     libpq's passfile.
    public static func open(
        url: String, schema: String? = nil, poolSize: Int = 4, password: Secret? = nil
    ) async throws -> some Store {
        if let schema, !isValidSchemaName(schema) {
            throw StoreError(.invalidConfiguration, engine: .postgres, operation: "open")
        }
        let engine = try PostgresEngine(
            conninfo: url, password: password, schema: schema, poolSize: max(1, poolSize))
        do {
            try await engine.write("migrate", transaction: true) { session throws(StoreError) in
                // Serialise concurrent migrators (instances starting together) on one transaction-scoped lock.
                _ = try session.query("SELECT pg_advisory_xact_lock(4242424242)", [])
                if let schema { try session.execute("CREATE SCHEMA IF NOT EXISTS \"\(schema)\"") }
                try SQLSchema.migrate(session, dialect: .postgres)
            }
        } catch {
            await engine.close()
            throw error
        }
        return SQLStore(engine: engine)
    }

    static func isValidSchemaName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63,
            !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
    }
}

/// Runs the shared store logic on PostgreSQL: single statements (``statement(_:_:_:)``, the hot path of a share)
/// on non-blocking pipelined connections — the calling event loop's own (``PostgresLoopPipeline``) for a handler,
/// otherwise those served by the store's one event-loop thread — and everything else (transactions, reads with logic
/// between statements) on a pool of blocking connections, each on its own thread.
final class PostgresEngine: SQLEngine {
    private let connections: [ConfinedConnection<PostgresConnection>]
    private let pool: ConnectionPool
    private let pipelines: [PostgresPipeline]
    private let loop: PostgresEventLoop
    /// Raised each time a connection is found lost: every connection opened before is replaced on its next use.
    private let losses: PostgresLosses
    private let conninfo: String
    private let password: Secret?
    private let schema: String?
    /// This store's key for its connections on each event loop.
    private let owner = newEventLoopAttachmentOwner()
    /// The event loops this store has connections on, to detach from when it closes, and whether it has closed.
    private let eventLoops = Mutex<(loops: [EventLoop], closed: Bool)>(([], false))

    var dialect: SQLDialect { .postgres }

    /// - Parameters:
    ///   - poolSize: blocking connections (and threads) for transactions.
    ///   - pipelines: non-blocking connections for single statements, all served by one thread.
    init(
        conninfo: String, password: Secret? = nil, schema: String?, poolSize: Int, pipelines: Int = 4
    ) throws(StoreError) {
        connections = (0..<poolSize).map { index in
            ConfinedConnection(name: "baton.postgres.\(index)", engine: .postgres) { () throws(StoreError) in
                try PostgresConnection(conninfo: conninfo, password: password, schema: schema)
            }
        }
        pool = ConnectionPool(size: poolSize)
        (self.conninfo, self.password, self.schema) = (conninfo, password, schema)
        let (loop, losses) = (try PostgresEventLoop(), PostgresLosses())
        self.loop = loop
        self.losses = losses
        self.pipelines = (0..<max(1, pipelines)).map { index in
            PostgresPipeline(
                conninfo: conninfo, password: password, schema: schema, name: "baton.postgres.connect.\(index)",
                losses: losses, watcher: loop)
        }
        loop.start(self.pipelines, name: "baton.postgres.loop")
    }

    /// Sends the statement on a pipelined connection, without a hop to a connection thread: on an event loop, on the
    /// loop's own; elsewhere, on the least busy of the store's.
    func statement(_ operation: String, _ sql: String, _ arguments: [SQLValue]) async throws(StoreError) -> [SQLRow] {
        var onLoop: PostgresPipeline?
        if Self.pipelinesOnLoops, let loop = EventLoop.current { onLoop = loopPipeline(on: loop) }
        let pipeline = onLoop ?? leastBusy(pipelines)
        do {
            return try await pipeline.run(operation, sql, arguments)
        } catch {
            if Self.isConnectionLoss(error) { losses.record() }
            throw error
        }
    }

    func changed(_ operation: String, _ change: RowChange, _ arguments: [SQLValue]) async throws(StoreError) -> Bool {
        try await !statement(operation, change.returning, arguments).isEmpty
    }

    /// One statement on a pipelined connection (``StoreSQL/tokenThenClaim``): the claim's insert reads the token's
    /// `RETURNING`. Only an empty bucket costs a second trip, to tell how long until it refills.
    func takeTokenThenInsertClaim(
        _ take: RateLimitTake, claim: [SQLValue], now: Date
    ) async throws(StoreError) -> TokenThenClaim {
        let operation = "takeRateLimitTokenAndClaim"
        let rows = try await statement(operation, StoreSQL.tokenThenClaim, take.arguments(now: now) + claim)
        let (taken, claimed) = try decode(operation, .postgres) { () throws -> (Int64, Int64) in
            guard let row = rows.first else { throw StoreError(.engineFailure, engine: .postgres, operation: "") }
            return (try row.integer(0), try row.integer(1))
        }
        if taken == 0 { return .limited(retryAfterSeconds: try await retryAfter(take, now: now)) }
        return claimed == 0 ? .exists : .claimed
    }

    func write<T: Sendable>(
        _ operation: String, transaction: Bool, _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        try await withConnection(operation) { session throws(StoreError) in
            guard transaction else { return try body(session) }
            return try session.transaction(begin: SQLDialect.postgres.beginWrite) { () throws(StoreError) in
                try body(session)
            }
        }
    }

    func read<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        try await withConnection(operation, body)
    }

    func close() async {
        pool.close()
        for pipeline in pipelines { pipeline.close() }
        let owner = self.owner
        let eventLoops = self.eventLoops.withLock { state in
            state.closed = true
            return state.loops
        }
        // Each loop closes its pipeline on its own thread (a loop that has exited already did).
        for eventLoop in eventLoops { eventLoop.execute { eventLoop.detach(owner) } }
        loop.stop()
        for connection in connections { await connection.close() }
    }

    /// Whether statements made on an event loop go out on the loop's own connection (`BATON_POSTGRES_ON_LOOPS=0`:
    /// always on the store's shared ones, for an A/B of the two).
    static let pipelinesOnLoops = ProcessInfo.processInfo.environment["BATON_POSTGRES_ON_LOOPS"] != "0"

    /// Statements made on an event loop, on each loop's own connection, for tests.
    let statementsOnLoops = Atomic(0)

    /// `eventLoop`'s pipeline for this store, made (not yet connected) on first use; `nil` if the loop could not wait
    /// on one (out of file descriptors). Only on `eventLoop`'s thread.
    private func loopPipeline(on eventLoop: EventLoop) -> PostgresPipeline? {
        let attachment = eventLoop.attachment(for: owner) {
            let made = PostgresLoopPipeline { index, watcher in
                PostgresPipeline(
                    conninfo: conninfo, password: password, schema: schema, name: "\(eventLoop.name).pg.\(index)",
                    losses: losses, watcher: watcher)
            }
            let registered = eventLoops.withLock { state in
                guard !state.closed else { return false }
                state.loops.append(eventLoop)
                return true
            }
            // Made after the store closed: refuses every statement, like the store's own pipelines.
            if !registered { for pipeline in made.pipelines { pipeline.close() } }
            return made
        }
        guard attachment.isUsable else { return nil }
        statementsOnLoops.add(1, ordering: .relaxed)
        return attachment.pipeline
    }

    private func withConnection<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (any SQLSession) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        guard let index = await pool.acquire() else {
            throw StoreError(.closed, engine: .postgres, operation: operation)
        }
        let epoch = losses.count
        do {
            let result = try await connections[index].run(operation, freshSince: epoch) { s throws(StoreError) in
                try body(s)
            }
            pool.release(index)
            return result
        } catch {
            // A lost connection means the server restarted or the network broke: the rest of the pool is suspect.
            if Self.isConnectionLoss(error) { losses.record() }
            pool.release(index)
            throw error
        }
    }
}

extension PostgresEngine {
    /// Whether `error` says the connection itself is gone (no answer at all, SQLSTATE class 08, or the server shutting
    /// down or restarting: 57P01–57P03), or that it reached a server that no longer takes writes (25006: a primary
    /// demoted or a standby, after a failover), as opposed to a refusal by a live primary. Either way the store's
    /// connections are replaced before their next use, through libpq's host list.
    static func isConnectionLoss(_ error: StoreError) -> Bool {
        guard error.code == .unavailable else { return false }
        guard let code = error.engineCode else { return true }
        return code.hasPrefix("08")
            || ["57P01", "57P02", "57P03", PostgresConnection.readOnlySQLState].contains(code)
    }
}

/// Hands out pool slots: an idle one at once, otherwise the next one released, first come first served.
///
/// A `Mutex`, not an actor: taking and returning a slot is two array operations, done twice per query, and with an
/// idle slot (the common case) it costs no suspension and no executor hop.
final class ConnectionPool: Sendable {
    private struct State {
        var idle: [Int]
        var waiters: [CheckedContinuation<Int?, Never>] = []
        var closed = false
    }

    private let state: Mutex<State>

    init(size: Int) { state = Mutex(State(idle: Array((0..<size).reversed()))) }

    /// A free slot, or `nil` once the pool is closed.
    func acquire() async -> Int? {
        enum Taken {
            case slot(Int?)
            case wait
        }
        let taken = state.withLock { state -> Taken in
            if state.closed { return .slot(nil) }
            if let index = state.idle.popLast() { return .slot(index) }
            return .wait
        }
        if case .slot(let index) = taken { return index }
        return await withCheckedContinuation { continuation in
            // The pool may have changed between the two locks: a slot freed, or the pool closed.
            let now = state.withLock { state -> Int?? in
                if state.closed { return .some(nil) }
                if let index = state.idle.popLast() { return .some(index) }
                state.waiters.append(continuation)
                return .none
            }
            if case .some(let index) = now { continuation.resume(returning: index) }
        }
    }

    func release(_ index: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Int?, Never>? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.idle.append(index)
            return nil
        }
        waiter?.resume(returning: index)
    }

    func close() {
        let waiters = state.withLock { state in
            state.closed = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }
}
