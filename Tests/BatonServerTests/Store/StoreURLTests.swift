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

    /// Each rejected input and a part of it that must not be printed: a marker no generic message can contain
    /// (`""` and `"sqlite:"` have nothing of their own to echo).
    @Test(
        arguments: [
            ("", nil), ("sqlite:", nil), ("mysql://u:hunter2@db-qz7/baton", "hunter2"),
            ("/just/a/path-qz7", "path-qz7"), ("http://db-qz7", "db-qz7"), ("postgre://db-qz7/baton", "db-qz7"),
        ] as [(String, String?)])
    func rejectsAnythingElseWithoutEchoingIt(_ string: String, echo: String?) {
        do {
            _ = try StoreURL(string)
            Issue.record("accepted \(string)")
        } catch let error as StoreError {
            #expect(error.code == .invalidConfiguration)
            guard let echo else { return }
            var dumped = ""
            dump(error, to: &dumped)
            for printed in ["\(error)", String(reflecting: error), error.localizedDescription, dumped] {
                #expect(!printed.contains(echo), "the error prints part of the rejected URL")
            }
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
