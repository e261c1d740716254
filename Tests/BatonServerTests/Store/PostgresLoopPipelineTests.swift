import BatonHTTP
import BatonHTTPTesting
import BatonStoreTestSupport
import Foundation
import Testing

@testable import BatonServer

/// A statement a handler makes on an event loop goes out on that loop's own pipelined connection, and the loop reads
/// its answer: no other thread is woken for it. The rules of the pipeline itself are the shared pipelines' (see
/// ``PostgresPipelineTests``); what is checked here is the loop's side: which connection, which thread, a connection
/// replaced while the loop sleeps, and closing.
@Suite(
    "PostgreSQL statements on an event loop",
    .enabled(
        if: TemporaryDatabase.postgresURL != nil, "BATON_TEST_POSTGRES_URL not set: run under scripts/with-postgres"),
    .timeLimit(.minutes(1)))
struct PostgresLoopPipelineTests {
    /// An event loop whose own source never becomes readable (the read end of a pipe nobody writes).
    final class Loop: Sendable {
        let loop: EventLoop
        private let ends: (read: Int32, write: Int32)

        init(_ name: String) {
            var ends: [Int32] = [-1, -1]
            precondition(pipe(&ends) == 0)
            self.ends = (ends[0], ends[1])
            loop = EventLoop(name: name)
            loop.start(EventLoop.Source(fileDescriptor: ends[0], timeout: { -1 }, run: { _ in }))
        }

        /// Stops the loop (from a thread of its own: stopping blocks).
        func stop() async {
            await withCheckedContinuation { continuation in
                Thread {
                    self.loop.stopAndWait()
                    continuation.resume()
                }.start()
            }
        }

        deinit {
            close(ends.read)
            close(ends.write)
        }
    }

    static func engine() throws -> PostgresEngine {
        try PostgresEngine(conninfo: TemporaryDatabase.postgresURL!, schema: nil, poolSize: 1, pipelines: 1)
    }

    static func integer(_ rows: [SQLRow]) -> Int64? { (try? rows.first?.integer(0)).flatMap { $0 } }

    static let pid = "SELECT pg_backend_pid()"

    @Test func aStatementOnALoopGoesOutOnTheLoopsOwnConnectionAndWakesOnlyTheLoop() async throws {
        let engine = try Self.engine()
        let fixture = Loop("test.loop.pg")
        let shared = try #require(Self.integer(try await engine.statement("pid", Self.pid, [])))
        #expect(engine.statementsOnLoops.load(ordering: .relaxed) == 0)
        // The first statement connects on a thread of its own while the loop sleeps: the new socket must reach the
        // loop's wait, or the answer would never be read.
        let (first, second, thread) = try await withTaskExecutorPreference(fixture.loop) {
            let first = Self.integer(try await engine.statement("pid", Self.pid, []))
            let second = Self.integer(try await engine.statement("pid", Self.pid, []))
            return (first, second, currentThreadName())
        }
        #expect(engine.statementsOnLoops.load(ordering: .relaxed) == 2)
        #expect(first != nil)
        #expect(first == second)
        #expect(first != shared)
        #expect(thread == "test.loop.pg")
        await engine.close()
        await fixture.stop()
    }

    @Test func aLoopOpensItsSecondConnectionOnlyWhileTheFirstIsBusy() async throws {
        let engine = try Self.engine()
        let fixture = Loop("test.loop.pg.two")
        let (one, many) = try await withTaskExecutorPreference(fixture.loop) {
            var one: Set<Int64> = []
            for _ in 0..<3 { one.insert(try #require(Self.integer(try await engine.statement("pid", Self.pid, [])))) }
            // Statements made together, each answered after a pause: the first connection is busy for the second.
            let many = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for _ in 0..<8 {
                    group.addTask(executorPreference: fixture.loop) {
                        Self.integer(
                            try await engine.statement("slow", "SELECT pg_backend_pid() FROM pg_sleep(0.05)", []))
                    }
                }
                var pids: Set<Int64> = []
                for try await pid in group { pids.insert(try #require(pid)) }
                return pids
            }
            return (one, many)
        }
        #expect(one.count == 1)
        #expect(many.count == PostgresLoopPipeline.connections)
        #expect(many.isSuperset(of: one))
        await engine.close()
        await fixture.stop()
    }

    @Test func concurrentStatementsOnTwoLoopsGetTheirOwnAnswersAndOneFailureStaysItsOwn() async throws {
        let engine = try Self.engine()
        let loops = [Loop("test.loop.pg.a"), Loop("test.loop.pg.b")]
        let outcomes = await PostgresPipelineTests.divideConcurrently(on: engine) { loops[Int($0) % 2].loop }
        PostgresPipelineTests.expectOwnAnswers(outcomes)
        #expect(engine.statementsOnLoops.load(ordering: .relaxed) == 300)
        await engine.close()
        for loop in loops { await loop.stop() }
    }

    @Test func aLoopsConnectionEndedByTheServerIsReplaced() async throws {
        let engine = try Self.engine()
        let fixture = Loop("test.loop.pg.replaced")
        let admin = try PostgresConnection(conninfo: TemporaryDatabase.postgresURL!, schema: nil)
        defer { admin.close() }
        let first = try #require(
            try await withTaskExecutorPreference(fixture.loop) {
                Self.integer(try await engine.statement("pid", Self.pid, []))
            })
        _ = try admin.query("SELECT pg_terminate_backend($1::int)", [.integer(first)])
        // The loop sees the connection end (or the next statement does, failing as unavailable at most once)…
        let replaced = await withTaskExecutorPreference(fixture.loop) { () async -> Int64? in
            for _ in 0..<2 {
                do throws(StoreError) {
                    return Self.integer(try await engine.statement("pid", Self.pid, []))
                } catch {
                    #expect(error.code == .unavailable)
                }
            }
            return nil
        }
        // …and a new connection answers on the loop.
        let second = try #require(replaced)
        #expect(second != first)
        await engine.close()
        await fixture.stop()
    }

    @Test func aClosedEngineRefusesStatementsOnALoop() async throws {
        let engine = try Self.engine()
        let fixture = Loop("test.loop.pg.closed")
        _ = try await withTaskExecutorPreference(fixture.loop) { try await engine.statement("probe", "SELECT 1", []) }
        await engine.close()
        let error = await withTaskExecutorPreference(fixture.loop) { () async -> StoreError? in
            do throws(StoreError) {
                _ = try await engine.statement("probe", "SELECT 1", [])
                return nil
            } catch {
                return error
            }
        }
        #expect(error?.code == .closed)
        await fixture.stop()
    }
}
