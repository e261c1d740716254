import BatonServer
import Foundation

/// `BatonBench store-claims` (`scripts/bench-store`): idempotency-claim throughput, SQLite and PostgreSQL side by
/// side, each claim a new key.
///
/// `BATON_BENCH_CLAIMS` (20,000) and `BATON_BENCH_CONCURRENCY` (64) tune the run; PostgreSQL is measured only when
/// `BATON_TEST_POSTGRES_URL` is set (`scripts/with-postgres` sets it).
enum StoreClaimsBench {
    static func run(environment: [String: String]) async throws {
        let claims = Int(environment["BATON_BENCH_CLAIMS"] ?? "") ?? 20_000
        let concurrency = Int(environment["BATON_BENCH_CONCURRENCY"] ?? "") ?? 64
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "baton-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var rows: [(String, StoreClaimBenchmark.Result?)] = []
        let sqlite = try await SQLiteStore.open(path: directory.appendingPathComponent("bench.sqlite").path)
        _ = try await StoreClaimBenchmark.run(store: sqlite, claims: 1_000, concurrency: concurrency, run: "warmup")
        rows.append(
            (
                "SQLite (WAL, 1 writer)",
                try await StoreClaimBenchmark.run(store: sqlite, claims: claims, concurrency: concurrency, run: "run")
            ))
        await sqlite.close()

        if let url = environment["BATON_TEST_POSTGRES_URL"] {
            let postgres = try await PostgresStore.open(
                url: url, schema: "bench_\(UInt32.random(in: 0...UInt32.max))", poolSize: 8)
            _ = try await StoreClaimBenchmark.run(
                store: postgres, claims: 1_000, concurrency: concurrency, run: "warmup")
            rows.append(
                (
                    "PostgreSQL (pool of 8)",
                    try await StoreClaimBenchmark.run(
                        store: postgres, claims: claims, concurrency: concurrency, run: "run")
                ))
            await postgres.close()
        } else {
            rows.append(("PostgreSQL (not configured)", nil))
        }

        print("idempotency claims (new key each), \(claims) claims, \(concurrency) concurrent tasks")
        for (name, result) in rows {
            let rate =
                result.map { String(format: "%10.0f claims/s  (%.2f s)", $0.claimsPerSecond, $0.seconds) }
                ?? "   skipped: set BATON_TEST_POSTGRES_URL"
            print("  \(name.padding(toLength: 30, withPad: " ", startingAt: 0))\(rate)")
        }
        if let sqliteRate = rows[0].1?.claimsPerSecond, let postgresRate = rows.last?.1?.claimsPerSecond,
            rows.count == 2
        {
            print(String(format: "  ratio PostgreSQL/SQLite: %.2f", postgresRate / sqliteRate))
        }
    }
}
