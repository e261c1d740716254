import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// Single statements (a claim, a completion, a rate-limit token) go out on non-blocking pipelined connections
/// served by one event-loop thread: no hop to a connection thread, answers matched to their callers in order, one
/// failing statement never disturbing its neighbours, and a connection the server ends replaced like the pool's.
@Suite(
    "PostgreSQL pipelined statements",
    .enabled(
        if: TemporaryDatabase.postgresURL != nil, "BATON_TEST_POSTGRES_URL not set: run under scripts/with-postgres"),
    .timeLimit(.minutes(1)))
struct PostgresPipelineTests {
    static func engine(pipelines: Int = 2, poolSize: Int = 1) throws -> PostgresEngine {
        try PostgresEngine(
            conninfo: TemporaryDatabase.postgresURL!, schema: nil, poolSize: poolSize, pipelines: pipelines)
    }

    static func admin() throws -> PostgresConnection {
        try PostgresConnection(conninfo: TemporaryDatabase.postgresURL!, schema: nil)
    }

    static func integer(_ rows: [SQLRow]) -> Int64? { (try? rows.first?.integer(0)).flatMap { $0 } }

    @Test func aStatementDoesNotWaitForTheBlockingConnections() async throws {
        let engine = try Self.engine(poolSize: 1)
        let admin = try Self.admin()
        defer { admin.close() }
        let key: Int64 = 4_711_001
        _ = try admin.query("SELECT pg_advisory_lock($1::bigint)", [.integer(key)])
        // The pool's only connection waits on the lock the admin connection holds…
        let blocked = Task {
            try await engine.read("blocked") { session throws(StoreError) in
                _ = try session.query("SELECT pg_advisory_lock($1::bigint)", [.integer(key)])
                _ = try session.query("SELECT pg_advisory_unlock($1::bigint)", [.integer(key)])
            }
        }
        let waiting = "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        while Self.integer(try admin.query(waiting, [])) == 0 { await Task.yield() }
        // …and a single statement is answered all the same (through the pool, it would wait for the lock).
        #expect(Self.integer(try await engine.statement("probe", "SELECT 41 + 1", [])) == 42)
        _ = try admin.query("SELECT pg_advisory_unlock($1::bigint)", [.integer(key)])
        try await blocked.value
        await engine.close()
    }

    @Test(arguments: [1, 2])
    func concurrentStatementsGetTheirOwnAnswersAndOneFailureStaysItsOwn(pipelines: Int) async throws {
        let engine = try Self.engine(pipelines: pipelines)
        Self.expectOwnAnswers(await Self.divideConcurrently(on: engine))
        await engine.close()
    }

    /// Every 25th divides by zero: 300 statements made at once, each task preferring `executor(value)` (`nil`: none).
    static func divideConcurrently(
        on engine: PostgresEngine, executor: @escaping @Sendable (Int64) -> (any TaskExecutor)? = { _ in nil }
    ) async -> [Int64: Result<Int64?, StoreError>] {
        let sql = "SELECT $1::bigint * 1000 / ($1::bigint % 25)"
        return await withTaskGroup(of: (Int64, Result<Int64?, StoreError>).self) { group in
            for value in Int64(1)...300 {
                group.addTask(executorPreference: executor(value)) {
                    do throws(StoreError) {
                        let rows = try await engine.statement("divide", sql, [.integer(value)])
                        return (value, .success(Self.integer(rows)))
                    } catch {
                        return (value, .failure(error))
                    }
                }
            }
            var outcomes: [Int64: Result<Int64?, StoreError>] = [:]
            for await (value, outcome) in group { outcomes[value] = outcome }
            return outcomes
        }
    }

    /// That statement alone fails, with its SQLSTATE; the others get their own value.
    static func expectOwnAnswers(_ outcomes: [Int64: Result<Int64?, StoreError>]) {
        #expect(outcomes.count == 300)
        for (value, outcome) in outcomes {
            switch outcome {
            case .success(let answer):
                #expect(value % 25 != 0)
                #expect(answer == value * 1000 / (value % 25))
            case .failure(let error):
                #expect(value % 25 == 0)
                #expect(error.engineCode == "22012")
                #expect(error.operation == "divide")
            }
        }
    }

    @Test func aStatementThatFailsToPrepareIsPreparedAgainNextTime() async throws {
        let engine = try Self.engine(pipelines: 1)
        let broken = "SELECT FROM WHERE $1::bigint"
        for _ in 0..<2 {
            let error = await #expect(throws: StoreError.self) {
                _ = try await engine.statement("broken", broken, [.integer(1)])
            }
            // A syntax error both times, never "prepared statement does not exist" (26000) the second time.
            #expect(error?.engineCode == "42601")
        }
        #expect(Self.integer(try await engine.statement("after", "SELECT $1::bigint", [.integer(7)])) == 7)
        await engine.close()
    }

    @Test func textWithNULIsRefusedBeforeAnythingIsSent() async throws {
        let engine = try Self.engine(pipelines: 1)
        let error = await #expect(throws: StoreError.self) {
            _ = try await engine.statement("bind", "SELECT $1::text", [.text("victim\u{0}x")])
        }
        #expect(error?.code == .invalidArgument)
        let rows = try await engine.statement("after", "SELECT $1::text", [.text("victim")])
        #expect((try? rows.first?.text(0)) == "victim")
        await engine.close()
    }

    @Test func aPipelinedConnectionEndedByTheServerIsReplaced() async throws {
        let engine = try Self.engine(pipelines: 1)
        let admin = try Self.admin()
        defer { admin.close() }
        let pid = "SELECT pg_backend_pid()"
        let first = try #require(Self.integer(try await engine.statement("pid", pid, [])))
        _ = try admin.query("SELECT pg_terminate_backend($1::int)", [.integer(first)])
        // At most one retryable failure (if the statement went out before the loop saw the connection end)…
        var second: Int64?
        for _ in 0..<2 where second == nil {
            do {
                second = Self.integer(try await engine.statement("pid", pid, []))
            } catch {
                #expect(error.code == .unavailable)
            }
        }
        // …then a new connection, with its statements prepared again.
        let replaced = try #require(second)
        #expect(replaced != first)
        #expect(Self.integer(try await engine.statement("pid", pid, [])) == replaced)
        await engine.close()
    }

    @Test func aClosedEngineRefusesStatements() async throws {
        let engine = try Self.engine(pipelines: 1)
        _ = try await engine.statement("probe", "SELECT 1", [])
        await engine.close()
        let error = await #expect(throws: StoreError.self) { _ = try await engine.statement("probe", "SELECT 1", []) }
        #expect(error?.code == .closed)
    }
}
