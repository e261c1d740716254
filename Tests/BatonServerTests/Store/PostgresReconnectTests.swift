import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// A PostgreSQL connection that the server ends (a restart, a failover, an administrator's `pg_terminate_backend`)
/// costs one retryable failure, never the process: the pool reconnects on the next use and prepares its statements
/// again. The reliability suite's `pg-restart` check does the same with real restarts under load.
@Suite(
    "PostgreSQL connections that the server ends",
    .enabled(
        if: TemporaryDatabase.postgresURL != nil, "BATON_TEST_POSTGRES_URL not set: run under scripts/with-postgres"))
struct PostgresReconnectTests {
    static let backendPID = "SELECT pg_backend_pid()"

    static func pid(_ engine: PostgresEngine) async throws -> Int64 {
        try await engine.read("pid") { session throws(StoreError) in
            let rows = try session.query(Self.backendPID, [])
            return (try? rows.first?.integer(0)).flatMap { $0 } ?? -1
        }
    }

    @Test(arguments: ["pg_terminate_backend", "pg_cancel_backend"])
    func aConnectionEndedByTheServerIsReplacedOnTheNextUse(function: String) async throws {
        let engine = try PostgresEngine(conninfo: TemporaryDatabase.postgresURL!, schema: nil, poolSize: 1)
        let admin = try PostgresConnection(conninfo: TemporaryDatabase.postgresURL!, schema: nil)
        defer { admin.close() }
        // The statement is prepared on the pooled connection.
        let first = try await Self.pid(engine)
        #expect(try await Self.pid(engine) == first)
        _ = try admin.query("SELECT \(function)($1::int)", [.integer(first)])
        if function == "pg_terminate_backend" {
            // The next use meets the ended connection: a retryable failure (503 at the HTTP layer), not a crash.
            let error = await #expect(throws: StoreError.self) { try await Self.pid(engine) }
            #expect(error?.code == .unavailable)
        }
        // Then a new connection, with the statement prepared again on it.
        let second = try await Self.pid(engine)
        #expect(function == "pg_cancel_backend" ? second == first : second != first)
        #expect(try await Self.pid(engine) == second)
        await engine.close()
    }

    /// Both connections of a pool of two, each busy for a moment so that they run side by side.
    static func pids(_ engine: PostgresEngine) async throws -> Set<Int64> {
        async let first = engine.read("pid") { session throws(StoreError) in
            let rows = try session.query("SELECT pg_backend_pid() FROM pg_sleep(0.2)", [])
            return (try? rows.first?.integer(0)).flatMap { $0 } ?? -1
        }
        async let second = engine.read("pid") { session throws(StoreError) in
            let rows = try session.query("SELECT pg_backend_pid() FROM pg_sleep(0.2)", [])
            return (try? rows.first?.integer(0)).flatMap { $0 } ?? -1
        }
        return try await [first, second]
    }

    @Test func afterOneLostConnectionTheRestOfThePoolReconnectsBeforeItsNextUse() async throws {
        let engine = try PostgresEngine(conninfo: TemporaryDatabase.postgresURL!, schema: nil, poolSize: 2)
        let admin = try PostgresConnection(conninfo: TemporaryDatabase.postgresURL!, schema: nil)
        defer { admin.close() }
        let before = try await Self.pids(engine)
        #expect(before.count == 2)
        // What a server restart does: every connection of the pool ended.
        for pid in before { _ = try admin.query("SELECT pg_terminate_backend($1::int)", [.integer(pid)]) }
        // The first use meets a lost connection: one retryable failure…
        await #expect(throws: StoreError.self) { try await Self.pid(engine) }
        // …and no more: the other connection is replaced before its next use too (it used to fail one request).
        let after = try await Self.pids(engine)
        #expect(after.count == 2)
        #expect(after.isDisjoint(with: before))
        await engine.close()
    }
}
