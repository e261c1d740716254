import BatonCore
import BatonHTTP
import Foundation
import Synchronization

/// One PostgreSQL connection in libpq's non-blocking pipeline mode, shared by every task that runs a single
/// statement (``PostgresEngine/statement(_:_:_:)``): a claim, a completion, a rate-limit token.
///
/// The calling task sends its statement itself, under the lock, without blocking (`PQsendQueryPrepared` and a sync
/// point, so each statement commits on its own) and suspends; the thread that waits on the socket (its
/// ``PostgresPipelineWatcher``: the handler's own event loop, or the store's thread for work off the loops) reads the
/// answers as they arrive, in order, and resumes each caller. So a statement costs no hop to a connection thread and
/// no wake-up of one, and statements from many tasks share one round trip to the server when they arrive together.
///
/// This type is the thin driver: it performs libpq's I/O and reports what happened to ``PostgresPipelineMachine``,
/// which holds the rules (ordering, reconnecting, failing what is in flight) and answers with the actions to take.
/// Machine and connection share one lock; callers are resumed outside it.
///
/// The connection is opened lazily on a short-lived thread of its own (libpq's connect blocks), and replaced when it
/// breaks or when another connection of the store was found lost (``PostgresLosses``: a server restart ends them
/// all), before its next statement; statements still in flight on the replaced connection fail as unavailable.
final class PostgresPipeline: Sendable {
    private typealias Machine = PostgresPipelineMachine<CheckedContinuation<Result<[SQLRow], StoreError>, Never>>
    private typealias Finished = (
        CheckedContinuation<Result<[SQLRow], StoreError>, Never>, Result<[SQLRow], StoreError>
    )

    private struct State {
        var machine = Machine()
        var connection: PostgresConnection?
        /// A connection just opened, until the machine says to install or discard it.
        var opened: PostgresConnection?
    }

    private let state = Mutex(State())
    private let conninfo: String
    private let password: Secret?
    private let schema: String?
    private let name: String
    private let losses: PostgresLosses
    /// Waits on the socket; told (under the lock) when the socket or the interest in writing changes.
    private let watcher: any PostgresPipelineWatcher
    /// Statements sent or waiting to be, and not yet answered, read by the engine to pick the least busy pipeline.
    let inFlight = Atomic(0)

    init(
        conninfo: String, password: Secret? = nil, schema: String?, name: String, losses: PostgresLosses,
        watcher: any PostgresPipelineWatcher
    ) {
        self.conninfo = conninfo
        self.password = password
        self.schema = schema
        self.name = name
        self.losses = losses
        self.watcher = watcher
    }

    /// Runs one statement on its own and returns its rows.
    func run(_ operation: String, _ sql: String, _ arguments: [SQLValue]) async throws(StoreError) -> [SQLRow] {
        let epoch = losses.count
        let result = await withCheckedContinuation { continuation in
            let statement = Machine.Statement(
                caller: continuation, operation: operation, sql: sql, arguments: arguments)
            let finished = state.withLock { state in
                let healthy = state.connection?.isHealthy ?? false
                return perform(state.machine.submit(statement, lossEpoch: epoch, healthy: healthy), on: &state)
            }
            resume(finished)
        }
        return try result.get()
    }

    /// The socket and whether the loop should wait for it to be writable (`-1` without a connection).
    var interest: (socket: Int32, write: Bool) {
        state.withLock { state in (state.connection?.socket ?? -1, state.machine.wantsWrite) }
    }

    /// Called by the event loop when the socket is readable (or closed): reads every complete answer.
    func readable() {
        let finished = state.withLock { state -> [Finished] in
            guard let connection = state.connection else { return [] }
            var finished: [Finished] = []
            do throws(StoreError) {
                try connection.consumeInput()
            } catch {
                return perform(state.machine.connectionFailed(), on: &state)
            }
            // Two end-of-command markers in a row would mean libpq has nothing queued that we wait for.
            var ends = 0
            while let operation = state.machine.awaitedOperation, connection.isHealthy, ends < 2 {
                guard let event = connection.nextPipelineEvent(operation) else { break }
                if case .commandEnd = event {
                    ends += 1
                    continue
                }
                ends = 0
                finished += perform(state.machine.received(event), on: &state)
            }
            if !connection.isHealthy { finished += perform(state.machine.connectionFailed(), on: &state) }
            return finished + perform(state.machine.answersRead(), on: &state)
        }
        resume(finished)
    }

    /// Called by the event loop when the socket is writable while ``interest`` asked for it.
    func writable() {
        resume(state.withLock { state in perform(state.machine.writable(), on: &state) })
    }

    /// Fails what is waiting with ``StoreError/Code/closed`` and closes the connection.
    func close() {
        resume(state.withLock { state in perform(state.machine.close(), on: &state) })
    }

    // MARK: - Private

    /// Performs `actions` (and those the machine answers with on the way) under the lock; returns the callers to
    /// resume once it is released.
    private func perform(_ actions: [Machine.Action], on state: inout State) -> [Finished] {
        var queue = actions[...]
        var finished: [Finished] = []
        while let action = queue.popFirst() {
            switch action {
            case .send(let statement):
                guard let connection = state.connection else {
                    let lost = StoreError(.unavailable, engine: .postgres, operation: statement.operation)
                    queue += state.machine.sendFailed(statement, lost)
                    continue
                }
                do throws(StoreError) {
                    let prepares = try connection.send(
                        statement.sql, statement.arguments, operation: statement.operation)
                    queue += state.machine.sent(statement, prepares: prepares)
                } catch {
                    queue += state.machine.sendFailed(statement, error)
                }
            case .flush:
                guard let connection = state.connection else { continue }
                do throws(StoreError) {
                    queue += state.machine.flushed(complete: try connection.flush())
                } catch {
                    queue += state.machine.connectionFailed()
                }
            case .interestChanged:
                watcher.changed(socket: state.connection?.socket ?? -1, write: state.machine.wantsWrite)
            case .finish(let continuation, let result):
                finished.append((continuation, result))
            case .forgetPrepared(let sql):
                state.connection?.forgetStatement(sql)
            case .connect(let epoch):
                startNamedThread(name) { [self] in self.open(epoch: epoch) }
            case .closeConnection(let lost):
                state.connection?.close()
                state.connection = nil
                if lost { losses.record() }
                watcher.changed(socket: -1, write: false)
            case .installConnection:
                state.connection?.close()
                state.connection = state.opened.take()
            case .discardConnection:
                state.opened.take()?.close()
            }
        }
        inFlight.store(state.machine.load, ordering: .relaxed)
        return finished
    }

    private func resume(_ finished: [Finished]) {
        for (continuation, result) in finished { continuation.resume(returning: result) }
    }

    /// Runs on the connecting thread: opens a connection in pipeline mode and reports it to the machine.
    private func open(epoch: Int) {
        let connection: PostgresConnection
        do throws(StoreError) {
            connection = try PostgresConnection(conninfo: conninfo, password: password, schema: schema)
            try connection.enterPipelineMode()
        } catch {
            resume(state.withLock { state in perform(state.machine.connectFailed(error), on: &state) })
            return
        }
        install(connection, epoch: epoch)
    }

    private func install(_ connection: sending PostgresConnection, epoch: Int) {
        // A value captured by the lock's closure cannot move into the guarded state; one taken out of a lock can.
        let handoff = Mutex<PostgresConnection?>(connection)
        let finished = state.withLock { state in
            state.opened = handoff.withLock { $0.take() }
            return perform(state.machine.connected(epoch: epoch), on: &state)
        }
        resume(finished)
    }
}

/// Counts PostgreSQL connections found lost (a server restart ends them all): every connection of the store opened
/// before the count rose is replaced before its next use instead of failing one request first.
final class PostgresLosses: Sendable {
    private let value = Atomic(0)

    /// Losses so far.
    var count: Int { value.load(ordering: .acquiring) }

    /// Records one lost connection.
    func record() { value.add(1, ordering: .releasing) }
}
