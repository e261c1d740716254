import Foundation
import Synchronization
import Testing

@testable import BatonServer

@Suite("SQLite WAL checkpoints run beside the writer, never inside its commits")
struct SQLiteCheckpointerTests {
    /// A fresh database file's path.
    private func databasePath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("wal.sqlite").path
    }

    /// The writer connection on `path`, reporting its commits to `checkpointer`, with a table to fill.
    private func writer(_ path: String, _ checkpointer: SQLiteCheckpointer) throws -> SQLiteConnection {
        let writer = try SQLiteConnection(
            path: path, readOnly: false, busyTimeoutMilliseconds: 5000, afterCommit: checkpointer.committed)
        try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        return writer
    }

    /// `count` commits of one 4 KiB row each (about two WAL pages per commit).
    private func commit(_ count: Int, on writer: SQLiteConnection) throws {
        for _ in 0..<count {
            try writer.transaction(begin: "BEGIN IMMEDIATE") { () throws(StoreError) in
                _ = try writer.query("INSERT INTO t (payload) VALUES ($1)", [.blob([UInt8](repeating: 7, count: 4096))])
            }
        }
    }

    private func walBytes(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }

    @Test func theWritersCommitsNeverCheckpoint() throws {
        // With the checkpointer's threshold out of reach, nothing may copy the WAL back: SQLite's own automatic
        // checkpoint (at 1,000 pages, inside a commit) must be off on the writer.
        let path = try databasePath()
        let checkpointer = SQLiteCheckpointer(path: path, busyTimeoutMilliseconds: 5000, threshold: .max)
        let writer = try writer(path, checkpointer)
        defer { writer.close() }
        try commit(700, on: writer)
        #expect(walBytes(path) > 1200 * 4096)
        #expect(checkpointer.checkpoints == 0)
    }

    @Test func checkpointsLetTheWALStartOverOnceTheyCatchUp() async throws {
        let path = try databasePath()
        let checkpointer = SQLiteCheckpointer(path: path, busyTimeoutMilliseconds: 5000, threshold: 100)
        let framesInUse = Atomic(0)
        let writer = try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 5000) { pages in
            framesInUse.store(pages, ordering: .relaxed)
            checkpointer.committed(walPages: pages)
        }
        defer { writer.close() }
        try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        try commit(300, on: writer)  // ~600 pages: several checkpoints start while commits go on
        #expect(checkpointer.checkpoints > 0 || checkpointer.isRunning)
        // Once the writer pauses, a checkpoint catches up and the next commit starts the WAL over from its first
        // frame: the WAL stays as large as one checkpoint's lag, not as large as everything ever written.
        var restarted = false
        for _ in 0..<50 where !restarted {
            try await eventually { !checkpointer.isRunning }
            try commit(1, on: writer)
            restarted = framesInUse.load(ordering: .relaxed) < 10
        }
        #expect(restarted, "the WAL never started over")
        await checkpointer.close()
    }
}

@Suite("SQLite schema")
struct SQLiteSchemaTests {
    @Test func thePurgeOfSealedResponsesUsesThePartialIndex() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "baton-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let connection = try SQLiteConnection(
            path: directory.appendingPathComponent("s.sqlite").path, readOnly: false, busyTimeoutMilliseconds: 5000)
        defer { connection.close() }
        try connection.transaction(begin: "BEGIN IMMEDIATE") { () throws(StoreError) in
            try SQLSchema.migrate(connection, dialect: .sqlite)
        }
        let plan = try connection.query(
            """
            EXPLAIN QUERY PLAN UPDATE idempotency_records SET sealed_response = NULL
            WHERE sealed_response IS NOT NULL AND response_expires_at <= $1
            """, [.integer(0)])
        let details = try plan.map { try $0.text(3) }.joined(separator: "\n")
        #expect(details.contains("idempotency_records_sealed_expiry"), "\(details)")
    }
}
