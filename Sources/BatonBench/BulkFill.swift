import CLibPQ
import CSQLite
import Foundation

/// Fills a store's `idempotency_records` table straight through SQL, one statement per chunk of 100,000 rows, so a
/// million stored records take seconds instead of a million claims; and measures how many bytes the table takes.
///
/// The rows look like a day of shares: completed, a fingerprint of 64 hex digits, a UUIDv4-shaped key, one of
/// 10,000 users, a sealed response of `sealedBytes` random bytes. Live rows were created within the last 24 h;
/// expired rows 2 days ago (older than the retention, their sealed responses past expiry): what a purge removes.
/// The column list follows `SQLSchema`'s; the benchmark opens the store (which migrates) before filling it.
enum BulkFill {
    /// Where the rows go.
    enum Target: Sendable {
        /// A SQLite database file (its store may be open: this is a second connection, waiting for the writer).
        case sqlite(path: String)
        /// A PostgreSQL server and the schema the store was opened with.
        case postgres(url: String, schema: String)
    }

    /// Failures of a fill, with the engine's message (the benchmark's own statements carry no secrets).
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Inserts rows `first..<first + count`; `expired` rows are older than the retention window.
    static func fill(
        _ target: Target, first: Int, count: Int, expired: Bool, sealedBytes: Int, now: Date
    ) throws(Failure) {
        let nowMilliseconds = Int64(now.timeIntervalSince1970 * 1000)
        // Created within the last day (live), or 2 days and up to an hour ago (expired); a journey URL lives 15 min.
        let base = expired ? nowMilliseconds - 2 * 86_400_000 : nowMilliseconds
        let spread = expired ? 3_600_000 : 86_000_000
        var start = first
        while start < first + count {
            let end = min(first + count, start + 100_000) - 1
            switch target {
            case .sqlite(let path):
                try sqlite(
                    path,
                    """
                    WITH RECURSIVE n(i) AS (SELECT \(start) UNION ALL SELECT i + 1 FROM n WHERE i < \(end))
                    INSERT INTO idempotency_records (user_id, idempotency_key, fingerprint, state, lease_owner,
                        lease_expires_at, response_status, sealed_response, response_expires_at, created_at,
                        updated_at)
                    SELECT 'bench-user-' || (i % 10000),
                        substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-a'
                            || substr(h, 18, 3) || '-' || substr(h, 21, 12),
                        lower(hex(randomblob(32))), 'completed', NULL, NULL, 201, randomblob(\(sealedBytes)),
                        c + 900000, c, c + 1
                    FROM (SELECT i, lower(hex(randomblob(16))) AS h, \(base) - (i * 7919) % \(spread) AS c FROM n)
                    """)
            case .postgres(let url, let schema):
                // 16 bytes per md5 digest: enough repeats for `sealedBytes`, then cut to length.
                let repeats = sealedBytes / 16 + 1
                try postgres(
                    url,
                    """
                    INSERT INTO "\(schema)".idempotency_records (user_id, idempotency_key, fingerprint, state,
                        lease_owner, lease_expires_at, response_status, sealed_response, response_expires_at,
                        created_at, updated_at)
                    SELECT 'bench-user-' || (i % 10000), gen_random_uuid()::text,
                        encode(sha256(int8send(i)), 'hex'), 'completed', NULL, NULL, 201,
                        substring(decode(repeat(md5(random()::text), \(repeats)), 'hex') FROM 1 FOR \(sealedBytes)),
                        c + 900000, c, c + 1
                    FROM generate_series(CAST(\(start) AS BIGINT), \(end)) AS i,
                        LATERAL (SELECT CAST(\(base) - (i * 7919) % \(spread) AS BIGINT) AS c) AS t
                    """)
            }
            start = end + 1
        }
    }

    /// Bytes the database holds for idempotency records: the SQLite file after a checkpoint (every table; the
    /// others are nearly empty here), or the PostgreSQL table with its indexes and TOAST.
    static func bytes(_ target: Target) throws(Failure) -> Int64 {
        switch target {
        case .sqlite(let path):
            try sqlite(path, "PRAGMA wal_checkpoint(TRUNCATE)")
            let pages = try sqliteInteger(path, "PRAGMA page_count")
            let free = try sqliteInteger(path, "PRAGMA freelist_count")
            return (pages - free) * (try sqliteInteger(path, "PRAGMA page_size"))
        case .postgres(let url, let schema):
            return try postgresInteger(url, "SELECT pg_total_relation_size('\"\(schema)\".idempotency_records')")
        }
    }

    // MARK: SQLite

    private static func withSQLite<T>(
        _ path: String, _ body: (OpaquePointer) throws(Failure) -> T
    ) throws(Failure) -> T {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db else {
            sqlite3_close(db)
            throw Failure(description: "cannot open \(path)")
        }
        defer { sqlite3_close(db) }
        sqlite3_busy_timeout(db, 60_000)
        return try body(db)
    }

    private static func sqlite(_ path: String, _ sql: String) throws(Failure) {
        try withSQLite(path) { db throws(Failure) in
            var message: UnsafeMutablePointer<CChar>?
            if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
                let text = message.map { String(cString: $0) } ?? "sqlite error"
                sqlite3_free(message)
                throw Failure(description: text)
            }
        }
    }

    private static func sqliteInteger(_ path: String, _ sql: String) throws(Failure) -> Int64 {
        try withSQLite(path) { db throws(Failure) in
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
                throw Failure(description: String(cString: sqlite3_errmsg(db)))
            }
            defer { sqlite3_finalize(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW else { throw Failure(description: "no row: \(sql)") }
            return sqlite3_column_int64(statement, 0)
        }
    }

    // MARK: PostgreSQL

    private static func withPostgres<T>(
        _ url: String, _ sql: String, _ body: (OpaquePointer) throws(Failure) -> T
    ) throws(Failure) -> T {
        guard let connection = PQconnectdb(url) else { throw Failure(description: "PQconnectdb failed") }
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else {
            throw Failure(description: String(cString: PQerrorMessage(connection)))
        }
        guard let result = PQexec(connection, sql) else { throw Failure(description: "PQexec failed") }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw Failure(description: String(cString: PQresultErrorMessage(result)))
        }
        return try body(result)
    }

    private static func postgres(_ url: String, _ sql: String) throws(Failure) {
        try withPostgres(url, sql) { _ throws(Failure) in }
    }

    private static func postgresInteger(_ url: String, _ sql: String) throws(Failure) -> Int64 {
        try withPostgres(url, sql) { result throws(Failure) in
            guard PQntuples(result) == 1, let value = Int64(String(cString: PQgetvalue(result, 0, 0))) else {
                throw Failure(description: "no integer: \(sql)")
            }
            return value
        }
    }
}
