/// The rules of one pipelined PostgreSQL connection (``PostgresPipeline``), as a value: each event the driver reports
/// (a statement submitted, one sent, an answer read, the connection opened or broken) returns the actions the driver
/// performs. No libpq call and no lock here, so the rules run in tests without a server.
///
/// The rules: answers come back in the order the statements were sent, so each answer goes to the oldest statement
/// in flight; one flusher writes what is queued: the caller when nothing else awaits an answer, otherwise the event
/// loop once it has read the next answers, so statements that arrive while the connection is busy go out together in
/// one write; a broken connection fails exactly the statements in flight on it and no other; a statement that finds
/// no usable connection (none yet, broken, or opened before another connection of the store was found lost) waits
/// for one connect, shared by every statement that arrives meanwhile, and is sent once it is open; after ``close()``
/// every statement is refused.
///
/// `Caller` is what the driver resumes with a statement's result (a continuation; a name in tests).
struct PostgresPipelineMachine<Caller: Sendable>: Sendable {
    /// One statement and who waits for it.
    struct Statement: Sendable {
        let caller: Caller
        let operation: String
        let sql: String
        let arguments: [SQLValue]
    }

    /// What the driver does, in order.
    enum Action: Sendable {
        /// Queue the statement on the connection, then report ``sent(_:prepares:)`` or ``sendFailed(_:_:)``.
        case send(Statement)
        /// Write what the connection has queued, then report ``flushed(complete:)`` (or ``connectionFailed()``).
        case flush
        /// The socket or the interest in writing changed: the event loop waits on the new set.
        case interestChanged
        /// Resume `caller` with `result`.
        case finish(Caller, Result<[SQLRow], StoreError>)
        /// A statement whose preparation failed: prepare it again on its next use.
        case forgetPrepared(sql: String)
        /// Open a new connection (off the caller's thread), then report ``connected(epoch:)`` or
        /// ``connectFailed(_:)``.
        case connect(epoch: Int)
        /// Close the connection; `lost`: it broke, so the store's other connections are suspect too.
        case closeConnection(lost: Bool)
        /// Put the connection just opened in place of the old one (closing the old one).
        case installConnection
        /// Close the connection just opened: the pipeline was closed meanwhile.
        case discardConnection
    }

    private struct InFlight: Sendable {
        let statement: Statement
        let prepares: Bool
        var rows: [SQLRow] = []
        var error: StoreError?
    }

    /// The losses count the installed connection was opened under; `nil` without a connection.
    private(set) var connectionEpoch: Int?
    /// Whether a connect is running.
    private(set) var connecting = false
    /// Whether the connection still holds bytes the socket would not take.
    private(set) var wantsWrite = false
    /// Whether statements are queued on the connection that nobody has flushed yet (the loop flushes them after the
    /// next answers it reads).
    private(set) var unflushed = false
    private(set) var closed = false
    /// Sent and not yet answered, oldest first.
    private var inFlight: [InFlight] = []
    private var head = 0
    /// Submitted while no usable connection was there; sent once the connect finishes.
    private var waiting: [Statement] = []

    /// Statements sent or waiting to be, and not yet answered (for picking the least busy pipeline).
    var load: Int { inFlight.count - head + waiting.count }

    /// The operation of the oldest statement awaiting its answer; `nil` when nothing is in flight.
    var awaitedOperation: String? { head < inFlight.count ? inFlight[head].statement.operation : nil }

    /// A statement to run. `lossEpoch`: the store's count of lost connections when it was submitted; `healthy`:
    /// whether the installed connection says it is still up.
    mutating func submit(_ statement: Statement, lossEpoch: Int, healthy: Bool) -> [Action] {
        if closed { return [.finish(statement.caller, .failure(Self.error(.closed, statement.operation)))] }
        if let connectionEpoch, healthy, connectionEpoch >= lossEpoch, !connecting { return [.send(statement)] }
        waiting.append(statement)
        if connecting { return [] }
        connecting = true
        return [.connect(epoch: lossEpoch)]
    }

    /// The statement is queued on the connection.
    mutating func sent(_ statement: Statement, prepares: Bool) -> [Action] {
        let busy = head < inFlight.count
        inFlight.append(InFlight(statement: statement, prepares: prepares))
        // A full socket is flushed when it is writable; a busy connection after its next answers (an answer is
        // due: the oldest statement in flight was flushed); an idle one by the caller, at once.
        if wantsWrite { return [] }
        if busy {
            unflushed = true
            return []
        }
        return [.flush]
    }

    /// The statement could not be queued: a refused argument fails it alone; anything else means the connection
    /// broke, and every statement in flight on it fails too.
    mutating func sendFailed(_ statement: Statement, _ error: StoreError) -> [Action] {
        let failed = Action.finish(statement.caller, .failure(error))
        guard error.code != .invalidArgument, connectionEpoch != nil else { return [failed] }
        return [failed] + connectionFailed()
    }

    /// A flush ended: `complete` when everything queued was written.
    mutating func flushed(complete: Bool) -> [Action] {
        guard wantsWrite == complete else { return [] }
        wantsWrite = !complete
        return [.interestChanged]
    }

    /// The socket can take more bytes.
    mutating func writable() -> [Action] { wantsWrite ? [.flush] : [] }

    /// The loop has read what the socket held and handed out the answers: it flushes the statements queued
    /// meanwhile.
    mutating func answersRead() -> [Action] {
        guard unflushed, connectionEpoch != nil else { return [] }
        unflushed = false
        return wantsWrite ? [] : [.flush]
    }

    /// One answer read, for the oldest statement in flight.
    mutating func received(_ event: PostgresConnection.PipelineEvent) -> [Action] {
        guard head < inFlight.count else { return [] }
        switch event {
        case .commandEnd: return []
        case .rows(let rows): inFlight[head].rows = rows
        case .failed(let error): if inFlight[head].error == nil { inFlight[head].error = error }
        case .sync:
            let answered = inFlight[head]
            head += 1
            compact()
            var actions: [Action] = []
            if answered.prepares, answered.error != nil { actions.append(.forgetPrepared(sql: answered.statement.sql)) }
            let result: Result<[SQLRow], StoreError> = answered.error.map { .failure($0) } ?? .success(answered.rows)
            actions.append(.finish(answered.statement.caller, result))
            return actions
        }
        return []
    }

    /// The connection broke (reading, writing, or found unhealthy): the statements in flight on it fail as
    /// unavailable, and the next statement opens a new one.
    mutating func connectionFailed() -> [Action] {
        guard connectionEpoch != nil else { return [] }
        connectionEpoch = nil
        wantsWrite = false
        unflushed = false
        return failInFlight(.unavailable) + [.closeConnection(lost: true)]
    }

    /// The connect started under `epoch` opened a connection.
    mutating func connected(epoch: Int) -> [Action] {
        connecting = false
        if closed { return [.discardConnection] }
        // Whatever is still in flight on the connection replaced will never be answered here.
        var actions = failInFlight(.unavailable)
        connectionEpoch = epoch
        wantsWrite = false
        unflushed = false
        actions += [.installConnection, .interestChanged]
        actions += waiting.map { .send($0) }
        waiting.removeAll()
        return actions
    }

    /// The connect failed: the statements waiting for it fail with its error.
    mutating func connectFailed(_ error: StoreError) -> [Action] {
        connecting = false
        defer { waiting.removeAll() }
        return waiting.map { .finish($0.caller, .failure(error)) }
    }

    /// Refuses everything from now on: what is in flight or waiting fails as closed.
    mutating func close() -> [Action] {
        guard !closed else { return [] }
        closed = true
        var actions = failInFlight(.closed)
        actions += waiting.map { .finish($0.caller, .failure(Self.error(.closed, $0.operation))) }
        waiting.removeAll()
        if connectionEpoch != nil { actions.append(.closeConnection(lost: false)) }
        connectionEpoch = nil
        wantsWrite = false
        unflushed = false
        return actions
    }

    // MARK: - Private

    private mutating func failInFlight(_ code: StoreError.Code) -> [Action] {
        defer {
            inFlight.removeAll()
            head = 0
        }
        return inFlight[head...].map {
            .finish($0.statement.caller, .failure(Self.error(code, $0.statement.operation)))
        }
    }

    /// Drops answered statements from the front now and then.
    private mutating func compact() {
        if head == inFlight.count {
            inFlight.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > inFlight.count {
            inFlight.removeFirst(head)
            head = 0
        }
    }

    private static func error(_ code: StoreError.Code, _ operation: String) -> StoreError {
        StoreError(code, engine: .postgres, operation: operation)
    }
}
