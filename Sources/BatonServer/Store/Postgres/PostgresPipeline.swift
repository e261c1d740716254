import BatonCore
import Foundation
import Synchronization

/// One PostgreSQL connection in libpq's non-blocking pipeline mode, shared by every task that runs a single
/// statement (``PostgresEngine/statement(_:_:_:)``): a claim, a completion, a rate-limit token.
///
/// The calling task sends its statement itself, under the lock, without blocking (`PQsendQueryPrepared` and a sync
/// point, so each statement commits on its own) and suspends; the event loop's thread reads the answers as they
/// arrive, in order, and resumes each caller. So a statement costs no hop to a connection thread and no wake-up of
/// one, and statements from many tasks share one round trip to the server when they arrive together.
///
/// The connection is opened lazily on a short-lived thread of its own (libpq's connect blocks), and replaced when it
/// breaks or when another connection of the store was found lost (``PostgresLosses``: a server restart ends them
/// all), before its next statement; statements still in flight on the replaced connection fail as unavailable.
final class PostgresPipeline: Sendable {
    /// What a caller waiting on the pipeline is resumed with.
    enum Submission: Sendable {
        case finished(Result<[SQLRow], StoreError>)
        case needsConnection
    }

    private struct Entry {
        let operation: String
        let sql: String
        let prepares: Bool
        let continuation: CheckedContinuation<Submission, Never>
        var rows: [SQLRow] = []
        var error: StoreError?
    }

    private struct State {
        var connection: PostgresConnection?
        /// The ``PostgresLosses`` count the connection was opened under.
        var epoch = 0
        var entries: [Entry] = []
        var head = 0
        /// Callers waiting for the connect in progress (`nil`: none running).
        var connecting: [CheckedContinuation<Result<Void, StoreError>, Never>]?
        /// libpq still holds bytes the socket would not take.
        var wantsWrite = false
        var closed = false

        var idle: Bool { head == entries.count }
    }

    private let state = Mutex(State())
    private let conninfo: String
    private let password: Secret?
    private let schema: String?
    private let name: String
    private let losses: PostgresLosses
    /// Told when the socket or the interest in writing changes.
    private let loop: PostgresEventLoop
    /// Statements sent and not yet answered, read by the engine to pick the least busy pipeline.
    let inFlight = Atomic(0)

    init(
        conninfo: String, password: Secret? = nil, schema: String?, name: String, losses: PostgresLosses,
        loop: PostgresEventLoop
    ) {
        self.conninfo = conninfo
        self.password = password
        self.schema = schema
        self.name = name
        self.losses = losses
        self.loop = loop
    }

    /// Runs one statement on its own and returns its rows.
    func run(_ operation: String, _ sql: String, _ arguments: [SQLValue]) async throws(StoreError) -> [SQLRow] {
        while true {
            switch await submit(operation, sql, arguments) {
            case .finished(let result): return try result.get()
            case .needsConnection: try await connect(operation)
            }
        }
    }

    /// The socket and whether the loop should wait for it to be writable (`-1` without a connection).
    var interest: (socket: Int32, write: Bool) {
        state.withLock { state in (state.connection?.socket ?? -1, state.wantsWrite) }
    }

    /// Called by the event loop when the socket is readable (or closed): reads every complete answer.
    func readable() {
        let finished = state.withLock { state -> [Finished] in
            guard let connection = state.connection else { return [] }
            var finished: [Finished] = []
            do throws(StoreError) {
                try connection.consumeInput()
                // Two end-of-command markers in a row would mean libpq has nothing queued that we wait for.
                var ends = 0
                while !state.idle, connection.isHealthy, ends < 2 {
                    guard let event = connection.nextPipelineEvent(state.entries[state.head].operation) else { break }
                    switch event {
                    case .commandEnd:
                        ends += 1
                        continue
                    case .rows(let rows): state.entries[state.head].rows = rows
                    case .failed(let error):
                        if state.entries[state.head].error == nil { state.entries[state.head].error = error }
                    case .sync:
                        let entry = state.entries[state.head]
                        if entry.prepares, entry.error != nil { connection.forgetStatement(entry.sql) }
                        finished.append((entry.continuation, entry.error.map { .failure($0) } ?? .success(entry.rows)))
                        state.head += 1
                    }
                    ends = 0
                }
                if !connection.isHealthy { throw StoreError(.unavailable, engine: .postgres, operation: "read") }
            } catch {
                finished += Self.drop(&state, code: .unavailable)
                losses.record()
                loop.changed()
            }
            Self.compact(&state)
            return finished
        }
        resume(finished)
    }

    /// Called by the event loop when the socket is writable while ``interest`` asked for it.
    func writable() {
        let failed = state.withLock { state -> [Finished] in
            guard let connection = state.connection, state.wantsWrite else { return [] }
            do throws(StoreError) {
                state.wantsWrite = try !connection.flush()
                if !state.wantsWrite { loop.changed() }
                return []
            } catch {
                losses.record()
                loop.changed()
                return Self.drop(&state, code: .unavailable)
            }
        }
        resume(failed)
    }

    /// Fails what is waiting with ``StoreError/Code/closed`` and closes the connection.
    func close() {
        let (finished, waiters) = state.withLock { state in
            state.closed = true
            defer { state.connecting = nil }
            return (Self.drop(&state, code: .closed), state.connecting ?? [])
        }
        resume(finished)
        let closed = StoreError(.closed, engine: .postgres, operation: "connect")
        for waiter in waiters { waiter.resume(returning: .failure(closed)) }
    }

    // MARK: - Private

    private typealias Finished = (CheckedContinuation<Submission, Never>, Result<[SQLRow], StoreError>)

    private func resume(_ finished: [Finished]) {
        guard !finished.isEmpty else { return }
        inFlight.subtract(finished.count, ordering: .relaxed)
        for (continuation, result) in finished { continuation.resume(returning: .finished(result)) }
    }

    /// Sends the statement under the lock, or says why it cannot be sent yet.
    private func submit(_ operation: String, _ sql: String, _ arguments: [SQLValue]) async -> Submission {
        await withCheckedContinuation { continuation in
            let epoch = losses.count
            let (immediate, failed) = state.withLock { state -> (Submission?, [Finished]) in
                guard !state.closed else {
                    return (.finished(.failure(StoreError(.closed, engine: .postgres, operation: operation))), [])
                }
                guard let connection = state.connection, connection.isHealthy, state.epoch >= epoch
                else { return (.needsConnection, []) }
                let prepares: Bool
                do throws(StoreError) {
                    prepares = try connection.send(sql, arguments, operation: operation)
                } catch {
                    guard error.code != .invalidArgument else { return (.finished(.failure(error)), []) }
                    // The connection broke while sending: everything queued on it fails, and this statement.
                    losses.record()
                    loop.changed()
                    return (.finished(.failure(error)), Self.drop(&state, code: .unavailable))
                }
                state.entries.append(
                    Entry(operation: operation, sql: sql, prepares: prepares, continuation: continuation))
                inFlight.add(1, ordering: .relaxed)
                do throws(StoreError) {
                    if !state.wantsWrite, try !connection.flush() {
                        state.wantsWrite = true
                        loop.changed()
                    }
                } catch {
                    losses.record()
                    loop.changed()
                    return (nil, Self.drop(&state, code: .unavailable))
                }
                return (nil, [])
            }
            resume(failed)
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    /// Opens the connection, or joins the opening in progress; on a thread of its own, as libpq's connect blocks.
    private func connect(_ operation: String) async throws(StoreError) {
        enum Step {
            case ready, closed, wait, start
        }
        let epoch = losses.count
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Void, StoreError>, Never>) in
            let step = state.withLock { state -> Step in
                if state.closed { return .closed }
                if let connection = state.connection, connection.isHealthy, state.epoch >= epoch {
                    return .ready
                }
                if state.connecting != nil {
                    state.connecting?.append(continuation)
                    return .wait
                }
                state.connecting = [continuation]
                return .start
            }
            switch step {
            case .ready: continuation.resume(returning: .success(()))
            case .closed:
                continuation.resume(returning: .failure(StoreError(.closed, engine: .postgres, operation: operation)))
            case .wait: break
            case .start:
                let thread = Thread { [self] in self.open(epoch: epoch) }
                thread.name = name
                thread.start()
            }
        }
        try result.get()
    }

    /// Runs on the connecting thread: opens a connection in pipeline mode and installs it.
    private func open(epoch: Int) {
        let connection: PostgresConnection
        do throws(StoreError) {
            connection = try PostgresConnection(conninfo: conninfo, password: password, schema: schema)
            try connection.enterPipelineMode()
        } catch {
            finishConnecting(.failure(error), failed: [])
            return
        }
        install(connection, epoch: epoch)
    }

    private func install(_ connection: sending PostgresConnection, epoch: Int) {
        // A value captured by the lock's closure cannot move into the guarded state; one taken out of a lock can.
        let handoff = Mutex<PostgresConnection?>(connection)
        let failed = state.withLock { state -> [Finished]? in
            guard !state.closed else { return nil }
            let failed = Self.drop(&state, code: .unavailable)
            state.connection = handoff.withLock { $0.take() }
            state.epoch = epoch
            return failed
        }
        handoff.withLock { $0?.close() }
        loop.changed()
        let closed = StoreError(.closed, engine: .postgres, operation: "connect")
        finishConnecting(failed == nil ? .failure(closed) : .success(()), failed: failed ?? [])
    }

    /// Resumes the callers waiting for the connect, and those a replaced connection failed.
    private func finishConnecting(_ outcome: Result<Void, StoreError>, failed: [Finished]) {
        let waiters = state.withLock { state in
            defer { state.connecting = nil }
            return state.connecting ?? []
        }
        resume(failed)
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Closes the connection and fails every statement still waiting on it with `code`.
    private static func drop(_ state: inout State, code: StoreError.Code) -> [Finished] {
        let failed = state.entries[state.head...].map { entry -> Finished in
            (entry.continuation, .failure(StoreError(code, engine: .postgres, operation: entry.operation)))
        }
        state.entries.removeAll()
        state.head = 0
        state.wantsWrite = false
        state.connection?.close()
        state.connection = nil
        return failed
    }

    /// Drops answered entries from the front of the queue now and then.
    private static func compact(_ state: inout State) {
        if state.idle {
            state.entries.removeAll(keepingCapacity: true)
            state.head = 0
        } else if state.head > 64, state.head * 2 > state.entries.count {
            state.entries.removeFirst(state.head)
            state.head = 0
        }
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
