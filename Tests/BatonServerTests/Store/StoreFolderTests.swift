import Foundation
import Testing

@testable import BatonServer

/// The SQLite folder: created (0700) when missing, so the default `sqlite:.baton/baton.sqlite` opens in a fresh
/// folder; and what `baton doctor` says about a folder before anything is created.
@Suite("SQLite folder")
struct StoreFolderTests {
    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-folder-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func openingADatabaseInAMissingFolderCreatesTheFolderWithMode0700() async throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent(".baton/nested/baton.sqlite").path
        let store = try await StoreURL("sqlite:\(path)").open()
        _ = try await store.idempotencyRecord(user: "u", key: "k")
        await store.close()
        #expect(FileManager.default.fileExists(atPath: path))
        for folder in [".baton", ".baton/nested"] {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: root.appendingPathComponent(folder).path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700, "\(folder)")
        }
    }

    @Test func aFolderBlockedByAFileIsAnUnavailableStoreNotACrash() async throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        await #expect(throws: StoreError.self) {
            try await StoreURL("sqlite:\(file.path)/db/baton.sqlite").open()
        }
    }

    @Test func readinessWithoutCreatingAnything() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        #expect(StoreFolder.readiness(forDatabaseAt: root.path + "/baton.sqlite") == .writable(folder: root.path))
        #expect(
            StoreFolder.readiness(forDatabaseAt: root.path + "/a/b/baton.sqlite")
                == .willBeCreated(folder: root.path + "/a/b", parent: root.path))
        #expect(!FileManager.default.fileExists(atPath: root.path + "/a"))
        #expect(
            StoreFolder.readiness(forDatabaseAt: file.path + "/db/baton.sqlite")
                == .cannotCreate(folder: file.path + "/db", blocker: file.path))
        #expect(StoreFolder.folder(of: "baton.sqlite") == ".")
    }
}
