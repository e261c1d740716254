import Foundation
import Testing

@testable import BatonServer

/// The engines the shared store behaviours run against. PostgreSQL runs when `BATON_TEST_POSTGRES_URL` is set
/// (`scripts/with-postgres swift test`, as `make test` does); otherwise its suite is reported skipped.
enum StoreEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["BATON_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// A fresh, private database for one test: a new SQLite file, or a new PostgreSQL schema.
struct TestDatabase: Sendable {
    let engine: StoreEngine
    private let location: String

    /// Creates the database's name; PostgreSQL requires `BATON_TEST_POSTGRES_URL` (its suite is disabled without).
    init(_ engine: StoreEngine) throws {
        self.engine = engine
        switch engine {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("baton-store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            location = directory.appendingPathComponent("baton.sqlite").path
        case .postgres:
            try #require(StoreEngine.postgresURL != nil, "BATON_TEST_POSTGRES_URL is not set")
            location = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        }
    }

    /// Opens one store instance (a new connection pool each call) on this database.
    func open(poolSize: Int = 4) async throws -> any Store {
        switch engine {
        case .sqlite: try await SQLiteStore.open(path: location)
        case .postgres:
            try await PostgresStore.open(url: StoreEngine.postgresURL!, schema: location, poolSize: poolSize)
        }
    }

    func remove() {
        if engine == .sqlite {
            try? FileManager.default.removeItem(atPath: (location as NSString).deletingLastPathComponent)
        }
    }
}

/// Runs `body` with a store on a fresh database, closing it afterwards.
func withStore(_ engine: StoreEngine, _ body: (any Store) async throws -> Void) async throws {
    let database = try TestDatabase(engine)
    defer { database.remove() }
    let store = try await database.open()
    do {
        try await body(store)
        await store.close()
    } catch {
        await store.close()
        throw error
    }
}

/// Whole-second instants, so millisecond storage round-trips exactly.
let t0 = Date(timeIntervalSince1970: 1_750_000_000)

func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }
