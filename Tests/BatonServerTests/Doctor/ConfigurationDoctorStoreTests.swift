import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// `baton doctor`'s store line: it fails where `baton serve` would fail to open the store, and says how to fix it.
@Suite("Configuration doctor: store")
struct ConfigurationDoctorStoreTests {
    static func configuration(database: String) throws -> BackendConfiguration {
        var configuration = try TestConfiguration.make()
        configuration.database = database
        return configuration
    }

    @Test func anSQLiteFolderThatCannotBeCreatedFails() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("baton-doctor-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let blocker = root.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let findings = await ConfigurationDoctor.storeFindings(
            try Self.configuration(database: "sqlite:\(blocker.path)/db/baton.sqlite"))
        #expect(findings.count == 1)
        #expect(findings.first?.level == .fail)
        #expect(findings.first?.fix?.contains("mkdir -p -m 700") == true)
    }

    @Test func aMissingSQLiteFolderIsOkAndIsNotCreatedByTheDoctor() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("baton-doctor-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let findings = await ConfigurationDoctor.storeFindings(
            try Self.configuration(database: "sqlite:\(root.path)/.baton/baton.sqlite"))
        #expect(findings.first?.level == .ok)
        #expect(findings.first?.message.contains("created at start") == true)
        #expect(!FileManager.default.fileExists(atPath: root.path + "/.baton"))
    }

    @Test func aPostgresThatRefusesTheConnectionFailsWithoutEchoingTheURL() async throws {
        let findings = await ConfigurationDoctor.storeFindings(
            try Self.configuration(database: "postgres://baton:hunter2@127.0.0.1:9/baton?connect_timeout=2"))
        #expect(findings.first?.level == .fail)
        #expect(findings.first?.message.contains("does not connect") == true)
        #expect(findings.first.map { !"\($0)".contains("hunter2") } == true)
    }

    @Test(.enabled(if: TemporaryDatabase.postgresURL != nil)) func aReachablePostgresReportsItsSchemaVersion()
        async throws
    {
        let url = try #require(TemporaryDatabase.postgresURL)
        let findings = await ConfigurationDoctor.storeFindings(try Self.configuration(database: url))
        #expect(findings.first?.level == .ok, "\(findings)")
    }
}
