import Foundation
import Testing

@testable import BatonServer

/// ``SQLiteConnection/changed(_:_:)``: SQLite counts the rows a statement changed instead of reading a `RETURNING`
/// row, and refuses a statement whose count would not answer the question.
@Suite("SQLite answers whether a statement changed a row")
struct SQLiteConnectionTests {
    private let directory: URL
    private let connection: SQLiteConnection

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        connection = try SQLiteConnection(
            path: directory.appendingPathComponent("t.sqlite").path, readOnly: false, busyTimeoutMilliseconds: 1000)
        try connection.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)")
    }

    private static let insert = RowChange(
        "INSERT INTO t (k, v) VALUES ($1, $2) ON CONFLICT (k) DO NOTHING", returning: "k")
    private static let bump = RowChange("UPDATE t SET v = v + 1 WHERE k = $1 AND v < $2", returning: "v")

    @Test func anInsertOrUpdateSaysWhetherItChangedItsRow() throws {
        defer { cleanUp() }
        #expect(try connection.changed(Self.insert, [.text("a"), .integer(0)]))
        #expect(try connection.changed(Self.insert, [.text("a"), .integer(5)]) == false)
        #expect(try connection.changed(Self.bump, [.text("a"), .integer(1)]))
        // The count is this statement's own, not the last one that changed a row.
        #expect(try connection.changed(Self.bump, [.text("a"), .integer(1)]) == false)
        #expect(try connection.changed(Self.bump, [.text("missing"), .integer(9)]) == false)
        #expect(try connection.query("SELECT v FROM t WHERE k = 'a'", []).first?.integer(0) == 1)
    }

    @Test func aStatementThatReturnsRowsOrOnlyReadsIsRefused() throws {
        defer { cleanUp() }
        #expect(try connection.changed(Self.insert, [.text("a"), .integer(0)]))
        let returning = RowChange(Self.insert.returning, returning: "k")
        #expect(throws: StoreError.self) { try connection.changed(returning, [.text("b"), .integer(0)]) }
        let read = RowChange("SELECT k FROM t WHERE k = $1 AND v < 0", returning: "k")
        #expect(throws: StoreError.self) { try connection.changed(read, [.text("a")]) }
        // Both statements are reset: the connection goes on working.
        #expect(try connection.changed(Self.insert, [.text("c"), .integer(0)]))
    }

    private func cleanUp() {
        connection.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
