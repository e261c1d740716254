import Testing

@testable import BatonServer

/// The pipelined connection's rules, without a server: each test is a transcript of the events the driver reports
/// and the actions the machine answers with. Callers are named by letters; `finish a 7` is `a` resumed with one row
/// holding 7, `finish a unavailable` with that error.
@Suite("PostgreSQL pipeline rules, as transcripts")
struct PostgresPipelineMachineTests {
    typealias Machine = PostgresPipelineMachine<String>

    /// A machine with a connection opened under losses count 0 and `statements` sent on it, in order.
    static func connected(sending statements: [String] = []) -> Machine {
        var machine = Machine()
        _ = machine.submit(statement("first"), lossEpoch: 0, healthy: false)
        _ = machine.connected(epoch: 0)
        _ = machine.sent(statement("first"), prepares: false)
        _ = machine.received(.rows([]))
        _ = machine.received(.sync)
        for name in statements { _ = machine.sent(statement(name), prepares: false) }
        return machine
    }

    static func statement(_ caller: String) -> Machine.Statement {
        Machine.Statement(caller: caller, operation: "op-\(caller)", sql: "SELECT \(caller)", arguments: [])
    }

    static func row(_ value: Int64) -> PostgresConnection.PipelineEvent { .rows([SQLRow(values: [.integer(value)])]) }

    /// The actions, one line each.
    static func transcript(_ actions: [Machine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .send(let statement): "send \(statement.caller)"
            case .flush: "flush"
            case .interestChanged: "interest changed"
            case .finish(let caller, .success(let rows)):
                "finish \(caller) " + rows.map { row in (try? row.integer(0)).map(String.init) ?? "?" }.joined()
            case .finish(let caller, .failure(let error)): "finish \(caller) \(error.code) (\(error.operation))"
            case .forgetPrepared(let sql): "forget \(sql)"
            case .connect(let epoch): "connect \(epoch)"
            case .closeConnection(let lost): lost ? "close lost connection" : "close connection"
            case .installConnection: "install connection"
            case .discardConnection: "discard connection"
            }
        }
    }

    @Test func theFirstStatementsWaitForOneConnectAndAreSentOnceItIsOpen() {
        var machine = Machine()
        #expect(Self.transcript(machine.submit(Self.statement("a"), lossEpoch: 3, healthy: false)) == ["connect 3"])
        #expect(Self.transcript(machine.submit(Self.statement("b"), lossEpoch: 3, healthy: false)).isEmpty)
        #expect(machine.load == 2)
        #expect(
            Self.transcript(machine.connected(epoch: 3)) == [
                "install connection", "interest changed", "send a", "send b",
            ])
        #expect(Self.transcript(machine.sent(Self.statement("a"), prepares: true)) == ["flush"])
        // Sent in the same batch: the flush already queued writes it too.
        #expect(Self.transcript(machine.sent(Self.statement("b"), prepares: false)).isEmpty)
        #expect(machine.load == 2)
        #expect(machine.awaitedOperation == "op-a")
    }

    @Test func answersAreResumedInTheOrderTheStatementsWereSent() {
        var machine = Self.connected(sending: ["a", "b", "c"])
        var lines: [String] = []
        for value: Int64 in [1, 2, 3] {
            lines += Self.transcript(machine.received(Self.row(value)))
            lines += Self.transcript(machine.received(.commandEnd))
            lines += Self.transcript(machine.received(.sync))
        }
        #expect(lines == ["finish a 1", "finish b 2", "finish c 3"])
        #expect(machine.load == 0)
        #expect(machine.awaitedOperation == nil)
        // An answer nothing waits for is ignored.
        #expect(Self.transcript(machine.received(.sync)).isEmpty)
    }

    @Test func aFailingStatementFailsAloneAndIsPreparedAgainNextTime() {
        var machine = Self.connected()
        _ = machine.sent(Self.statement("a"), prepares: true)
        _ = machine.sent(Self.statement("b"), prepares: false)
        let division = StoreError(.engineFailure, engine: .postgres, operation: "op-a", engineCode: "22012")
        #expect(Self.transcript(machine.received(.failed(division))).isEmpty)
        // The pipeline's "aborted" marker after the error does not replace it.
        let aborted = StoreError(.engineFailure, engine: .postgres, operation: "op-a")
        #expect(Self.transcript(machine.received(.failed(aborted))).isEmpty)
        let failed = machine.received(.sync)
        #expect(Self.transcript(failed) == ["forget SELECT a", "finish a engineFailure (op-a)"])
        if case .finish(_, .failure(let error)) = failed.last { #expect(error.engineCode == "22012") }
        _ = machine.received(Self.row(2))
        #expect(Self.transcript(machine.received(.sync)) == ["finish b 2"])
    }

    @Test func aBrokenConnectionFailsExactlyTheStatementsInFlightOnIt() {
        var machine = Self.connected(sending: ["a", "b", "c"])
        _ = machine.received(Self.row(1))
        #expect(Self.transcript(machine.received(.sync)) == ["finish a 1"])
        #expect(
            Self.transcript(machine.connectionFailed()) == [
                "finish b unavailable (op-b)", "finish c unavailable (op-c)", "close lost connection",
            ])
        #expect(machine.load == 0)
        // Reported twice (the read and the health check): nothing more fails.
        #expect(Self.transcript(machine.connectionFailed()).isEmpty)
    }

    @Test func afterABrokenConnectionTheNextStatementReconnectsAndIsSent() {
        var machine = Self.connected(sending: ["a"])
        _ = machine.connectionFailed()
        #expect(Self.transcript(machine.submit(Self.statement("d"), lossEpoch: 1, healthy: false)) == ["connect 1"])
        #expect(
            Self.transcript(machine.connected(epoch: 1)) == ["install connection", "interest changed", "send d"])
        #expect(Self.transcript(machine.submit(Self.statement("e"), lossEpoch: 1, healthy: true)) == ["send e"])
    }

    @Test func aConnectionOpenedBeforeAnotherWasLostIsReplacedAndWhatIsInFlightOnItFails() {
        var machine = Self.connected(sending: ["a"])
        // Another connection of the store was found lost (the count rose to 1): this one is suspect too.
        #expect(Self.transcript(machine.submit(Self.statement("b"), lossEpoch: 1, healthy: true)) == ["connect 1"])
        // While the connect runs, nothing is sent on the suspect connection.
        #expect(Self.transcript(machine.submit(Self.statement("c"), lossEpoch: 0, healthy: true)).isEmpty)
        _ = machine.received(Self.row(1))
        #expect(Self.transcript(machine.received(.sync)) == ["finish a 1"])
        _ = machine.sent(Self.statement("x"), prepares: false)
        #expect(
            Self.transcript(machine.connected(epoch: 1)) == [
                "finish x unavailable (op-x)", "install connection", "interest changed", "send b", "send c",
            ])
    }

    @Test func aFailedConnectFailsTheStatementsWaitingForItWithItsError() {
        var machine = Machine()
        _ = machine.submit(Self.statement("a"), lossEpoch: 0, healthy: false)
        _ = machine.submit(Self.statement("b"), lossEpoch: 0, healthy: false)
        let refused = StoreError(.unavailable, engine: .postgres, operation: "connect", engineCode: "08001")
        #expect(
            Self.transcript(machine.connectFailed(refused)) == [
                "finish a unavailable (connect)", "finish b unavailable (connect)",
            ])
        // The next statement tries again.
        #expect(Self.transcript(machine.submit(Self.statement("c"), lossEpoch: 0, healthy: false)) == ["connect 0"])
    }

    @Test func aSendThatBreaksTheConnectionFailsItAndEverythingInFlight() {
        var machine = Self.connected(sending: ["a"])
        let broken = StoreError(.unavailable, engine: .postgres, operation: "op-b")
        #expect(
            Self.transcript(machine.sendFailed(Self.statement("b"), broken)) == [
                "finish b unavailable (op-b)", "finish a unavailable (op-a)", "close lost connection",
            ])
        // A statement still queued to be sent after the break fails alone.
        #expect(Self.transcript(machine.sendFailed(Self.statement("c"), broken)) == ["finish c unavailable (op-b)"])
    }

    @Test func aRefusedArgumentFailsOnlyItsStatement() {
        var machine = Self.connected(sending: ["a"])
        let refused = StoreError(.invalidArgument, engine: .postgres, operation: "op-b")
        #expect(
            Self.transcript(machine.sendFailed(Self.statement("b"), refused)) == ["finish b invalidArgument (op-b)"])
        _ = machine.received(Self.row(1))
        #expect(Self.transcript(machine.received(.sync)) == ["finish a 1"])
    }

    @Test func statementsSentWhileAnAnswerIsDueAreFlushedTogetherByTheLoopAfterItReads() {
        var machine = Self.connected()
        // Nothing awaits an answer: the caller flushes its statement at once.
        #expect(Self.transcript(machine.sent(Self.statement("a"), prepares: false)) == ["flush"])
        _ = machine.flushed(complete: true)
        // An answer is due: later statements only queue.
        #expect(Self.transcript(machine.sent(Self.statement("b"), prepares: false)).isEmpty)
        #expect(Self.transcript(machine.sent(Self.statement("c"), prepares: false)).isEmpty)
        _ = machine.received(Self.row(1))
        #expect(Self.transcript(machine.received(.sync)) == ["finish a 1"])
        // The loop, done reading, writes b and c in one flush; once.
        #expect(Self.transcript(machine.answersRead()) == ["flush"])
        #expect(Self.transcript(machine.answersRead()).isEmpty)
        // A read with nothing queued meanwhile flushes nothing.
        _ = machine.received(Self.row(2))
        _ = machine.received(.sync)
        #expect(Self.transcript(machine.answersRead()).isEmpty)
    }

    @Test func aBrokenConnectionLeavesNothingToFlush() {
        var machine = Self.connected(sending: ["a"])
        #expect(Self.transcript(machine.sent(Self.statement("b"), prepares: false)).isEmpty)
        _ = machine.connectionFailed()
        #expect(Self.transcript(machine.answersRead()).isEmpty)
    }

    @Test func aFullSocketIsWatchedForWritingUntilFlushed() {
        var machine = Self.connected()
        #expect(Self.transcript(machine.sent(Self.statement("a"), prepares: false)) == ["flush"])
        #expect(Self.transcript(machine.flushed(complete: false)) == ["interest changed"])
        #expect(machine.wantsWrite)
        // Statements sent meanwhile wait for the socket instead of flushing again.
        #expect(Self.transcript(machine.sent(Self.statement("b"), prepares: false)).isEmpty)
        #expect(Self.transcript(machine.writable()) == ["flush"])
        #expect(Self.transcript(machine.flushed(complete: false)).isEmpty)
        #expect(Self.transcript(machine.flushed(complete: true)) == ["interest changed"])
        #expect(!machine.wantsWrite)
        #expect(Self.transcript(machine.writable()).isEmpty)
    }

    @Test func aClosedPipelineFailsWhatIsPendingAndRefusesEverythingAfter() {
        var machine = Self.connected(sending: ["a"])
        #expect(
            Self.transcript(machine.close()) == ["finish a closed (op-a)", "close connection"])
        #expect(
            Self.transcript(machine.submit(Self.statement("b"), lossEpoch: 0, healthy: true)) == [
                "finish b closed (op-b)"
            ])
        #expect(Self.transcript(machine.close()).isEmpty)
    }

    @Test func aConnectThatFinishesAfterCloseIsDiscarded() {
        var machine = Machine()
        _ = machine.submit(Self.statement("a"), lossEpoch: 0, healthy: false)
        #expect(Self.transcript(machine.close()) == ["finish a closed (op-a)"])
        #expect(Self.transcript(machine.connected(epoch: 0)) == ["discard connection"])
        #expect(
            Self.transcript(machine.submit(Self.statement("b"), lossEpoch: 0, healthy: true)) == [
                "finish b closed (op-b)"
            ])
    }
}
