import Foundation
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

    @Test func checkpointsKeepTheWALBounded() async throws {
        let path = try databasePath()
        let checkpointer = SQLiteCheckpointer(path: path, busyTimeoutMilliseconds: 5000, threshold: 100)
        let writer = try writer(path, checkpointer)
        defer { writer.close() }
        for _ in 0..<10 {
            try commit(70, on: writer)
            try await eventually { !checkpointer.isRunning }
        }
        // 700 commits wrote ~1,400 pages; restarted after each checkpoint, the WAL holds a few hundred at most.
        #expect(checkpointer.checkpoints >= 5)
        #expect(walBytes(path) < 600 * 4096)
        let rows = try writer.query("SELECT COUNT(*) FROM t", [])
        #expect(try rows.first?.integer(0) == 700)
        await checkpointer.close()
    }
}
