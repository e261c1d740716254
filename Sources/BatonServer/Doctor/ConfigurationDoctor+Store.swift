import Foundation

/// `baton doctor`'s store check: the store `baton serve` would open can be opened, without creating or migrating it.
extension ConfigurationDoctor {
    /// SQLite: the database folder exists and is writable, or can be created. PostgreSQL: it connects, and the schema
    /// version Baton recorded is one this build knows (or the database is empty and is migrated at the first start).
    static func storeFindings(_ configuration: BackendConfiguration) async -> [DoctorFinding] {
        guard let url = try? StoreURL(configuration.database) else {
            return [
                DoctorFinding(.fail, "database", "is not sqlite:PATH or postgres://…", fix: "see docs/configuration.md")
            ]
        }
        switch url.location {
        case .sqlite(let path): return [sqliteFinding(path: path)]
        case .postgres(let uri):
            return [await postgresFinding(uri: uri, described: url.description)]
                + [postgresHostsFinding(uri: uri)].compactMap { $0 }
        }
    }

    static func sqliteFinding(path: String) -> DoctorFinding {
        switch StoreFolder.readiness(forDatabaseAt: path) {
        case .writable(let folder):
            return DoctorFinding(.ok, "database", "sqlite:\(path): the folder \(folder) is writable")
        case .willBeCreated(let folder, let parent):
            return DoctorFinding(
                .ok, "database", "sqlite:\(path): the folder \(folder) is created at start (mode 0700, in \(parent))")
        case .notWritable(let folder):
            return DoctorFinding(
                .fail, "database", "sqlite:\(path): the folder \(folder) is not writable by this user",
                fix: "chown the folder to the user baton runs as (chmod 700), or point database at a writable path")
        case .cannotCreate(let folder, let blocker):
            return DoctorFinding(
                .fail, "database",
                "sqlite:\(path): the folder \(folder) cannot be created (\(blocker) is not a writable folder)",
                fix: "create it with `mkdir -p -m 700 \(folder)` as the user baton runs as, or change database")
        }
    }

    static func postgresFinding(uri: String, described: String) async -> DoctorFinding {
        let latest = SQLSchema.latestVersion
        do {
            let version = try await PostgresStore.probeSchemaVersion(url: uri)
            if version == 0 {
                return DoctorFinding(
                    .ok, "database", "\(described) connects; empty: the schema (version \(latest)) is created at start")
            }
            guard version <= latest else {
                return DoctorFinding(
                    .fail, "database",
                    "\(described) has schema version \(version), newer than this build knows (\(latest))",
                    fix: "run the Baton release that migrated it (or a newer one); never downgrade a shared database")
            }
            return DoctorFinding(
                .ok, "database", "\(described) connects; schema version \(version) (this build: \(latest))")
        } catch {
            return DoctorFinding(
                .fail, "database", "\(described) does not connect (\(error.code.rawValue))",
                fix: "check host, port, database name and credentials (in the URL, PGPASSWORD or ~/.pgpass), "
                    + "and that this host may connect")
        }
    }
}
