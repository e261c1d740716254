import BatonCore
import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// `BATON_DATABASE_PASSWORD` reaches libpq beside the URL (`PQconnectdbParams` with the URL expanded), so the URL
/// itself needs no password.
@Suite(
    "PostgreSQL password beside the URL",
    .enabled(
        if: TemporaryDatabase.postgresURL != nil, "BATON_TEST_POSTGRES_URL not set: run under scripts/with-postgres"),
    .timeLimit(.minutes(1)))
struct PostgresPasswordTests {
    @Test func aConnectionWithAPasswordStillReadsEverythingElseFromTheURL() throws {
        let url = TemporaryDatabase.postgresURL!
        let plain = try PostgresConnection(conninfo: url, schema: nil)
        defer { plain.close() }
        let withPassword = try PostgresConnection(conninfo: url, password: Secret("not-in-the-url"), schema: nil)
        defer { withPassword.close() }
        let sql = "SELECT current_database() || '/' || current_user || '/' || inet_server_port()::text"
        let expected = try plain.query(sql, []).first?.text(0)
        #expect(expected != nil)
        #expect(try withPassword.query(sql, []).first?.text(0) == expected)
    }

    @Test func aStoreOpensWithAPassword() async throws {
        let store = try await PostgresStore.open(
            url: TemporaryDatabase.postgresURL!, schema: "pw_\(UInt32.random(in: 0...UInt32.max))", poolSize: 1,
            password: Secret("not-in-the-url"))
        await store.close()
    }
}
