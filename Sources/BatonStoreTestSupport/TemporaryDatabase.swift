import BatonServer
import Foundation

/// A fresh, private database for one test: a new SQLite file in a temporary folder, or a new schema on the
/// PostgreSQL server of `BATON_TEST_POSTGRES_URL` (`scripts/with-postgres` sets it; `make test` does).
///
/// ```swift
/// let database = try TemporaryDatabase(.sqlite)
/// let store = try await database.open()
/// defer { database.remove() }
/// ```
public struct TemporaryDatabase: Sendable {
    /// The store engines.
    public enum Engine: String, CaseIterable, Sendable {
        /// SQLite, always available.
        case sqlite
        /// PostgreSQL, when `BATON_TEST_POSTGRES_URL` is set.
        case postgres
    }

    /// Why a database could not be made.
    public enum Failure: Error, Sendable {
        /// A PostgreSQL database was asked for without `BATON_TEST_POSTGRES_URL`.
        case postgresNotConfigured
    }

    /// The PostgreSQL server tests may use, from `BATON_TEST_POSTGRES_URL` (`nil` when unset or empty).
    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["BATON_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The engines available here: SQLite always, PostgreSQL when ``postgresURL`` is set.
    public static var availableEngines: [Engine] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    /// Its engine.
    public let engine: Engine
    private let location: String

    /// Names a new database (a new SQLite folder is created now; a PostgreSQL schema on first ``open(poolSize:)``).
    ///
    /// - Throws: ``Failure/postgresNotConfigured`` for PostgreSQL without ``postgresURL``; a file-system error.
    public init(_ engine: Engine) throws {
        self.engine = engine
        switch engine {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("baton-store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            location = directory.appendingPathComponent("baton.sqlite").path
        case .postgres:
            guard Self.postgresURL != nil else { throw Failure.postgresNotConfigured }
            location = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        }
    }

    /// Opens one store instance on this database (a new connection pool each call), applying migrations.
    public func open(poolSize: Int = 4) async throws -> any Store {
        switch engine {
        case .sqlite: return try await SQLiteStore.open(path: location)
        case .postgres:
            guard let url = Self.postgresURL else { throw Failure.postgresNotConfigured }
            return try await PostgresStore.open(url: url, schema: location, poolSize: poolSize)
        }
    }

    /// Removes an SQLite database's folder (a PostgreSQL schema is left to the throwaway server).
    public func remove() {
        if engine == .sqlite {
            try? FileManager.default.removeItem(atPath: (location as NSString).deletingLastPathComponent)
        }
    }
}
