import Testing

@testable import BatonServer

/// `baton doctor` explains a PostgreSQL URL with several hosts: the hosts, and whether libpq is told to keep the one
/// that takes writes (docs/production.md, failover).
@Suite("Configuration doctor: multi-host PostgreSQL URLs")
struct ConfigurationDoctorMultiHostTests {
    @Test func aReadWriteMultiHostURLIsExplained() throws {
        let finding = try #require(
            ConfigurationDoctor.postgresHostsFinding(
                uri: "postgres://baton:s3cret@db-a:5432,db-b:5433/baton?target_session_attrs=read-write"))
        #expect(finding.level == .ok)
        #expect(finding.message.contains("2 hosts (db-a:5432, db-b:5433)"))
        #expect(finding.message.contains("target_session_attrs=read-write"))
        #expect(!finding.description.contains("s3cret"))
    }

    @Test func oneSharedPortAndTheDefaultPort() throws {
        let shared = try #require(
            ConfigurationDoctor.postgresHostsFinding(uri: "postgres://a,b,c:6000/x?target_session_attrs=primary"))
        #expect(shared.message.contains("3 hosts (a:5432, b:5432, c:6000)"))
        #expect(shared.level == .ok)
    }

    @Test func aMissingTargetSessionAttrsIsAWarningWithTheFix() throws {
        let finding = try #require(ConfigurationDoctor.postgresHostsFinding(uri: "postgres://u@a:1,b:2/db"))
        #expect(finding.level == .warn)
        #expect(finding.fix?.contains("target_session_attrs=read-write") == true)
    }

    @Test func aTargetThatMayKeepAStandbyFails() throws {
        let finding = try #require(
            ConfigurationDoctor.postgresHostsFinding(uri: "postgres://a,b/db?target_session_attrs=any"))
        #expect(finding.level == .fail)
    }

    @Test func aSingleHostOrAnUnparsableURLSaysNothingHere() {
        #expect(ConfigurationDoctor.postgresHostsFinding(uri: "postgres://u@a:5432/db") == nil)
        #expect(ConfigurationDoctor.postgresHostsFinding(uri: "postgres://a,b/db?nonsense=1") == nil)
    }
}
