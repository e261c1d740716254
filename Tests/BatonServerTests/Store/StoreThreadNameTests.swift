import Foundation
import Testing

@testable import BatonServer

/// The store's threads carry their names to the kernel, so `top -H`, `perf` and gdb can tell the SQLite writer, its
/// checkpointer and the PostgreSQL loop apart (Foundation's `Thread.name` alone never reached it on Linux).
@Suite struct StoreThreadNameTests {
    @Test func aConnectionRunsOnAThreadTheKernelKnowsByItsName() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-tn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("names.sqlite").path
        let connection = ConfinedConnection(name: "baton.sqlite.writer", engine: .sqlite) {
            () throws(StoreError) in
            try SQLiteConnection(path: path, readOnly: false, busyTimeoutMilliseconds: 5000)
        }
        let name = try await connection.run("name") { _ throws(StoreError) in
            (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        }
        await connection.close()
        #expect(name == "baton.sqlite.wr\n")
    }
}
