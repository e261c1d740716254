import Foundation
import Testing

@testable import BatonServer

/// A PostgreSQL connection that the server ends (a restart, a failover, an administrator's `pg_terminate_backend`)
/// costs one retryable failure, never the process: the pool reconnects on the next use and prepares its statements
/// again. The reliability suite's `pg-restart` check does the same with real restarts under load.
@Suite(
    "PostgreSQL connections that the server ends",
    .enabled(if: StoreEngine.postgresURL != nil, "BATON_TEST_POSTGRES_URL not set: run under scripts/with-postgres"))
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
        let engine = PostgresEngine(conninfo: StoreEngine.postgresURL!, schema: nil, poolSize: 1)
        let admin = try PostgresConnection(conninfo: StoreEngine.postgresURL!, schema: nil)
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
}
