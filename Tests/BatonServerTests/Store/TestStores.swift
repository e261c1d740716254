import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// The engines the shared store behaviours run against. PostgreSQL runs when `BATON_TEST_POSTGRES_URL` is set
/// (`scripts/with-postgres swift test`, as `make test` does); otherwise its suite is reported skipped.
typealias StoreEngine = TemporaryDatabase.Engine

extension TemporaryDatabase.Engine: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

/// Runs `body` with a store on a fresh database, closing it afterwards.
func withStore(_ engine: StoreEngine, _ body: (any Store) async throws -> Void) async throws {
    let database = try TemporaryDatabase(engine)
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
