import Foundation
import Testing

@testable import BatonServer

@Suite("Store URLs and errors")
struct StoreURLTests {
    @Test func parsesBothSchemes() throws {
        #expect(try StoreURL("sqlite:/var/lib/baton.db").location == .sqlite(path: "/var/lib/baton.db"))
        #expect(try StoreURL("sqlite:relative.db").location == .sqlite(path: "relative.db"))
        let postgres = "postgres://baton:pw@db.internal:5432/baton"
        #expect(try StoreURL(postgres).location == .postgres(uri: postgres))
        #expect(try StoreURL("postgresql://db/baton").location == .postgres(uri: "postgresql://db/baton"))
    }

    @Test(arguments: ["", "sqlite:", "mysql://db", "/just/a/path", "http://db"])
    func rejectsAnythingElseWithoutEchoingIt(_ string: String) {
        do {
            _ = try StoreURL(string)
            Issue.record("accepted \(string)")
        } catch let error as StoreError {
            #expect(error.code == .invalidConfiguration)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func neverPrintsThePassword() throws {
        let url = try StoreURL("postgres://baton:hunter2@db.internal:5432/baton?sslmode=require&password=hunter2")
        for printed in [
            "\(url)", String(reflecting: url),
            {
                var out = ""; dump(url, to: &out); return out
            }(),
        ] {
            #expect(!printed.contains("hunter2"))
            #expect(printed.contains("db.internal:5432/baton"))
        }
    }

    @Test func errorDescriptionsAreGeneric() {
        let error = StoreError(.constraintViolation, engine: .postgres, operation: "claim", engineCode: "23505")
        #expect(
            error.description
                == "StoreError(constraint_violation) during claim: a constraint rejected the write [postgres 23505]")
    }

    @Test func openingAnUnreachablePostgresFailsAsUnavailable() async {
        do {
            _ = try await PostgresStore.open(url: "postgres://nobody:secret-pw@127.0.0.1:1/none?connect_timeout=2")
            Issue.record("opened a store on a closed port")
        } catch let error as StoreError {
            #expect(error.code == .unavailable)
            #expect(!"\(error)".contains("secret-pw"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func rejectsUnsafeSchemaNames() async {
        await #expect(throws: StoreError(.invalidConfiguration, engine: .postgres, operation: "open")) {
            _ = try await PostgresStore.open(url: "postgres://127.0.0.1:1/x", schema: "x\"; DROP TABLE y; --")
        }
    }

    @Test func openingANonDatabaseFileFails() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-db-\(UUID().uuidString)").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        await #expect(throws: StoreError.self) { _ = try await SQLiteStore.open(path: path) }
    }
}
