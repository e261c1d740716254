import BatonCore
import Foundation

extension PostgresStore {
    /// Connects to `url` without migrating and reads the schema version Baton recorded there: `0` for a database
    /// Baton has not migrated yet. For `baton doctor`; the connection runs on a thread of its own and is closed.
    static func probeSchemaVersion(url: String, password: Secret? = nil) async throws(StoreError) -> Int {
        let connection = ConfinedConnection<PostgresConnection>(name: "baton.postgres.probe", engine: .postgres) {
            () throws(StoreError) in try PostgresConnection(conninfo: url, password: password, schema: nil)
        }
        do {
            let version = try await connection.run("probe") { session throws(StoreError) -> Int in
                let tables = try session.query(
                    "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'schema_version' "
                        + "AND table_schema = ANY (current_schemas(false))", [])
                let count = try decode("probe", .postgres) { try tables.first?.integer(0) ?? 0 }
                guard count > 0 else { return 0 }
                let rows = try session.query("SELECT MAX(version) FROM schema_version", [])
                return try decode("probe", .postgres) { Int(try rows.first?.optionalInteger(0) ?? 0) }
            }
            await connection.close()
            return version
        } catch {
            await connection.close()
            throw error
        }
    }
}
