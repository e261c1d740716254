import Foundation

/// ``Store/purgeIdempotency(now:retention:)`` with the batch size chosen: tests purge in small batches.
protocol BatchedIdempotencyPurge: Store {
    /// Purges as ``Store/purgeIdempotency(now:retention:)`` does, each statement touching at most `batchSize` rows.
    func purgeIdempotency(now: Date, retention: TimeInterval, batchSize: Int) async throws -> IdempotencyPurge

    /// Purges as ``Store/purgeRecords(now:retention:keepingAssets:)`` does, each write touching at most `batchSize`
    /// rows.
    func purgeRecords(
        now: Date, retention: RecordRetention, keepingAssets: Set<String>?, batchSize: Int
    ) async throws -> RecordPurge
}

/// The `Store` logic, written once over ``SQLEngine`` and shared by ``SQLiteStore`` and ``PostgresStore``.
///
/// Read-modify-writes run as one transaction on the engine's write path; single-statement writes use
/// `INSERT … ON CONFLICT` / `UPDATE … RETURNING` so they are atomic without one.
final class SQLStore<Engine: SQLEngine>: BatchedIdempotencyPurge {
    let engine: Engine
    var dialect: SQLDialect { engine.dialect }

    init(engine: Engine) { self.engine = engine }

    // MARK: Idempotency

    func claim(
        user: String, key: String, fingerprint: String, owner: String, leaseUntil: Date, now: Date
    ) async throws -> IdempotencyClaim {
        let lockedSelect = dialect.idempotencyRecordForUpdate
        let engineName = dialect.engine
        let insertArguments: [SQLValue] = [
            .text(user), .text(key), .text(fingerprint), .text(owner), .time(leaseUntil), .time(now),
        ]
        let insert: @Sendable (any SQLSession) throws(StoreError) -> Bool = { session throws(StoreError) in
            try session.changed(StoreSQL.claimInsert, insertArguments)
        }
        // Fast path, the common case: a new key is one atomic statement, no explicit transaction.
        if try await engine.changed("claim", StoreSQL.claimInsert, insertArguments) { return .claimed }
        return try await engine.write("claim", transaction: true) { session throws(StoreError) in
            // A concurrent `release` can delete the row between the insert and the read; then insert again.
            for _ in 0..<3 {
                if try insert(session) { return .claimed }
                let rows = try session.query(lockedSelect, [.text(user), .text(key)])
                guard let row = rows.first else { continue }
                let record = try decode("claim", engineName) { () throws -> IdempotencyRecord in
                    try StoreRows.idempotencyRecord(row)
                }
                guard record.fingerprint == fingerprint else { return .fingerprintMismatch }
                switch record.state {
                case .completed:
                    return .completed(record)
                case .inProgress where (record.leaseExpiresAt ?? .distantPast) > now:
                    return .inProgress(record)
                case .inProgress, .failed:
                    _ = try session.query(
                        StoreSQL.claimTakeOver,
                        [.text(user), .text(key), .text(owner), .time(leaseUntil), .time(now)])
                    return .tookOver
                }
            }
            throw StoreError(.busy, engine: engineName, operation: "claim")
        }
    }

    func extendLease(user: String, key: String, owner: String, until: Date) async throws -> Bool {
        try await engine.changed(
            "extendLease", StoreSQL.extendLease, [.text(user), .text(key), .text(owner), .time(until)])
    }

    func complete(
        user: String, key: String, owner: String, responseStatus: Int, sealedResponse: [UInt8],
        responseExpiresAt: Date, now: Date
    ) async throws -> Bool {
        try await engine.changed(
            "complete", StoreSQL.complete,
            [
                .text(user), .text(key), .text(owner), .integer(Int64(responseStatus)), .blob(sealedResponse),
                .time(responseExpiresAt), .time(now),
            ])
    }

    func fail(user: String, key: String, owner: String, now: Date) async throws -> Bool {
        try await engine.changed("fail", StoreSQL.fail, [.text(user), .text(key), .text(owner), .time(now)])
    }

    func release(user: String, key: String, owner: String) async throws -> Bool {
        try await engine.changed("release", StoreSQL.release, [.text(user), .text(key), .text(owner)])
    }

    func idempotencyRecord(user: String, key: String) async throws -> IdempotencyRecord? {
        let engineName = dialect.engine
        return try await engine.read("idempotencyRecord") { session throws(StoreError) in
            let rows = try session.query(StoreSQL.idempotencyRecord, [.text(user), .text(key)])
            return try decode("idempotencyRecord", engineName) { try rows.first.map(StoreRows.idempotencyRecord) }
        }
    }

    /// Rows one purge statement deletes or erases at most. Each batch is its own short write, so a share's claim
    /// waits behind one batch at most, never behind the whole purge: a million expired records purged in one
    /// transaction held SQLite's only writer for seconds (docs/reliability-history.md, "Curves"), and a batch of 1,000 rows
    /// still tens of milliseconds (shares p50/p99 168/806 ms during a purge); 100 keeps a share's wait to a few
    /// milliseconds for a purge about twice as long (docs/reliability-history.md, "Store path of a share").
    static var purgeBatchSize: Int { 100 }

    func purgeIdempotency(now: Date, retention: TimeInterval) async throws -> IdempotencyPurge {
        try await purgeIdempotency(now: now, retention: retention, batchSize: Self.purgeBatchSize)
    }

    func purgeIdempotency(now: Date, retention: TimeInterval, batchSize: Int) async throws -> IdempotencyPurge {
        // Records past retention go first, so their sealed responses are not erased just before the row goes.
        let deleted = try await inBatches(
            "purgeIdempotency", StoreSQL.purgeIdempotencyRecords, .time(now.addingTimeInterval(-retention)),
            batchSize: batchSize)
        let erased = try await inBatches(
            "purgeIdempotency", StoreSQL.eraseExpiredResponses, .time(now), batchSize: batchSize)
        return IdempotencyPurge(
            responsesErased: erased.rows, recordsDeleted: deleted.rows, batches: deleted.batches + erased.batches)
    }

    /// Runs `statement` (`$1` the cut-off, `$2` the batch size; it touches at most `$2` rows) until a batch comes
    /// back short, each as a write of its own. A cancelled task stops after its current batch (the next
    /// maintenance round picks up the rest).
    func inBatches(
        _ operation: String, _ statement: String, _ cutoff: SQLValue, batchSize: Int
    ) async throws(StoreError) -> (rows: Int, batches: Int) {
        let arguments = [cutoff, .integer(Int64(max(1, batchSize)))]
        var rows = 0
        var batches = 0
        while true {
            let touched = try await engine.housekeepingWrite(operation) { session throws(StoreError) in
                try session.query(statement, arguments).count
            }
            rows += touched
            batches += 1
            if touched < max(1, batchSize) || Task.isCancelled { return (rows, batches) }
            // On SQLite every write queued meanwhile runs before the next batch (``SQLEngine/housekeepingWrite``),
            // so the purge takes the writer at most one batch at a time.
            await Task.yield()
        }
    }

    func close() async { await engine.close() }
}
