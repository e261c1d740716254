import BatonCore
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// `baton doctor`'s PostgreSQL link line: outside development the server must be authenticated (`verify-full`, or
/// `verify-ca` with a named root), and a password in the URL is a warning.
@Suite("Configuration doctor: database link")
struct ConfigurationDoctorDatabaseLinkTests {
    static func findings(_ database: String, development: Bool = false) throws -> [DoctorFinding] {
        var configuration = try TestConfiguration.make()
        configuration.database = database
        configuration.allowsLoopbackHTTP = development
        return ConfigurationDoctor.databaseLinkFindings(configuration)
    }

    @Test(arguments: [
        "postgres://baton@db.internal:5432/baton",
        "postgres://baton@db.internal/baton?sslmode=prefer",
        "postgresql://baton@db.internal/baton?sslmode=require",
        "postgres://baton@db.internal/baton?sslmode=verify-ca",
        "postgres://baton@127.0.0.1:5432/baton?sslmode=disable",
    ])
    func aLinkThatDoesNotAuthenticateTheServerFailsAndSaysWhatToSet(_ database: String) throws {
        let findings = try Self.findings(database)
        #expect(findings.map(\.level) == [.fail])
        #expect(findings.first?.field == "database")
        #expect(findings.first?.fix?.contains("sslmode=verify-full") == true)
        #expect(findings.first?.message.contains("db.internal") == false)
    }

    @Test(arguments: [
        "postgres://baton@db.internal:5432/baton?sslmode=verify-full",
        "postgres://baton@db.internal/baton?sslrootcert=%2Fetc%2Fbaton%2Fpg-root.crt&sslmode=verify-full",
        "postgres://baton@db.internal/baton?sslmode=verify-ca&sslrootcert=/etc/baton/pg-root.crt",
        "postgres:///baton?host=/var/run/postgresql",
        "postgres://%2Fvar%2Frun%2Fpostgresql/baton",
    ])
    func anAuthenticatedOrLocalSocketLinkIsOk(_ database: String) throws {
        #expect(try Self.findings(database).map(\.level) == [.ok])
    }

    @Test func developmentModeOnlyWarns() throws {
        #expect(try Self.findings("postgres://baton@127.0.0.1/baton", development: true).map(\.level) == [.warn])
    }

    @Test(arguments: [
        "postgres://baton:hunter2hunter2@db.internal/baton?sslmode=verify-full",
        "postgres://baton@db.internal/baton?sslmode=verify-full&password=hunter2hunter2",
    ])
    func aPasswordInTheURLWarnsWithoutEchoingIt(_ database: String) throws {
        let findings = try Self.findings(database)
        #expect(findings.map(\.level) == [.ok, .warn])
        #expect(findings.last?.fix?.contains("BATON_DATABASE_PASSWORD") == true)
        #expect(!findings.map(\.description).joined().contains("hunter2"))
    }

    @Test func sqliteHasNoLinkLine() throws {
        #expect(try Self.findings("sqlite:.baton/baton.sqlite").isEmpty)
    }

    @Test func theDatabasePasswordComesFromTheEnvironment() throws {
        var environment = TestConfiguration.environment
        environment["BATON_DATABASE_PASSWORD"] = "s3cret-from-env"
        #expect(try TestConfiguration.make(environment: environment).databasePassword == Secret("s3cret-from-env"))
        #expect(try TestConfiguration.make().databasePassword == nil)
    }
}
