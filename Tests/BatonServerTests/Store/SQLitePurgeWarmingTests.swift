import Foundation
import Testing

@testable import BatonServer

/// A purge batch reads its pages on a reader first: on SQLite's only writer a page the OS no longer caches blocked
/// the batch, and every claim queued behind it, for 30–130 ms while the checkpointer's writes queued on the disk.
@Suite("SQLite purge: each batch's pages are read on a reader first")
struct SQLitePurgeWarmingTests {
    private static let day: TimeInterval = 86_400
    private static let start = Date(timeIntervalSince1970: 1_000_000)

    /// An engine on a fresh database holding 25 records past a day's retention and 12 younger ones whose responses
    /// expired, each with a sealed response (the large ones span overflow pages).
    private static func engine(readers: Int) async throws -> SQLiteEngine {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-warm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let engine = SQLiteEngine(
            path: directory.appendingPathComponent("warm.sqlite").path, readers: readers,
            busyTimeoutMilliseconds: 5000)
        try await engine.write("migrate", transaction: true) { session throws(StoreError) in
            try SQLSchema.migrate(session, dialect: .sqlite)
        }
        let store = SQLStore(engine: engine)
        for (prefix, count, created, expires) in [("old", 25, 0.0, 900.0), ("expired", 12, day - 10, day + 100)] {
            for index in 0..<count {
                let at = start + created
                _ = try await store.claim(
                    user: "u\(index % 3)", key: "\(prefix)-\(index)", fingerprint: "f", owner: "A",
                    leaseUntil: at + 30, now: at)
                _ = try await store.complete(
                    user: "u\(index % 3)", key: "\(prefix)-\(index)", owner: "A", responseStatus: 201,
                    sealedResponse: [UInt8](repeating: UInt8(index), count: index % 2 == 0 ? 9000 : 40),
                    responseExpiresAt: start + expires, now: at + 1)
            }
        }
        return engine
    }

    private static func keys(_ rows: [SQLRow]) throws -> Set<String> {
        Set(try rows.map { "\(try $0.text(0))/\(try $0.text(1))" })
    }

    private static func remaining(_ engine: SQLiteEngine, _ sql: String) async throws -> Set<String> {
        try keys(try await engine.read("test") { session throws(StoreError) in try session.query(sql, []) })
    }

    /// The warming statement finds exactly the rows its purge statement's next batch then changes, batch after batch.
    @Test(arguments: [
        (StoreSQL.warmIdempotencyPurge, StoreSQL.purgeIdempotencyRecords, day, [10, 10, 5], ""),
        (
            StoreSQL.warmResponseErasure, StoreSQL.eraseExpiredResponses, 0, [10, 10, 10, 7],
            "WHERE sealed_response IS NOT NULL"
        ),
    ])
    func warmingFindsTheRowsOfTheNextBatch(
        warming: String, purge: String, retention: TimeInterval, batches: [Int], filter: String
    ) async throws {
        let engine = try await Self.engine(readers: 1)
        let arguments: [SQLValue] = [.time(Self.start + Self.day + 100 - retention), .integer(10)]
        let left = "SELECT user_id, idempotency_key FROM idempotency_records " + filter
        for expected in batches {
            let before = try await Self.remaining(engine, left)
            let warmed = try Self.keys(
                try await engine.read("test") { session throws(StoreError) in try session.query(warming, arguments) })
            let touched = try await engine.write("test", transaction: false) { session throws(StoreError) in
                try session.query(purge, arguments).count
            }
            #expect(touched == expected)
            #expect(before.subtracting(try await Self.remaining(engine, left)) == warmed)
        }
        await engine.close()
    }

    /// Each warming statement reads the index entries its purge statement changes, not only the rows.
    @Test func warmingReadsEveryIndexThePurgeChanges() async throws {
        let engine = try await Self.engine(readers: 0)
        let expectations = [
            (
                StoreSQL.warmIdempotencyPurge,
                [
                    "idempotency_records_created_at", "sqlite_autoindex_idempotency_records_1",
                    "idempotency_records_sealed_expiry",
                ]
            ),
            (
                StoreSQL.warmResponseErasure,
                ["idempotency_records_sealed_expiry", "sqlite_autoindex_idempotency_records_1"]
            ),
        ]
        for (warming, indexes) in expectations {
            let rows = try await engine.read("test") { session throws(StoreError) in
                try session.query("EXPLAIN QUERY PLAN " + warming, [.integer(0), .integer(10)])
            }
            let plan = try rows.map { try $0.text(3) }
            for index in indexes {
                #expect(plan.contains { $0.contains(index) }, "\(plan)")
            }
        }
        await engine.close()
    }

    /// Every batch of a purge is warmed on a reader before it is queued on the writer; without readers the writer
    /// would do the reading anyway, so nothing is warmed.
    @Test(arguments: [1, 0])
    func everyBatchIsWarmedOnAReader(readers: Int) async throws {
        let engine = try await Self.engine(readers: readers)
        let store = SQLStore(engine: engine)

        let purge = try await store.purgeIdempotency(
            now: Self.start + Self.day + 100, retention: Self.day, batchSize: 10)

        // Deletes of 10, 10 and 5 rows; erasures of 10 and 2.
        #expect(purge == IdempotencyPurge(responsesErased: 12, recordsDeleted: 25, batches: 5))
        #expect(engine.housekeepingWarmings == (readers > 0 ? purge.batches : 0))
        await engine.close()
    }
}
