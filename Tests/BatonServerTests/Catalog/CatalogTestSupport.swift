import BatonCore
import BatonHTTP
import BatonSandbox
import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Synchronization
import Testing

@testable import BatonServer

/// The public origin the tests project with.
let testPublicOrigin = "https://partner.example"

/// The public origin of a development backend (`baton serve --sandbox`).
let developmentPublicOrigin = "http://127.0.0.1:8080"

/// A jitter source tests set by hand.
final class FixedJitter: Sendable {
    private let value = Mutex(0.5)
    func set(_ jitter: Double) { value.withLock { $0 = jitter } }
    func next() -> Double { value.withLock { $0 } }
}

/// The Chia sandbox on 127.0.0.1 (manual clock), one store, and a catalog pipeline wired to both, as `baton serve`
/// would wire it; a second instance on the same database can be made with ``makeInstance(instanceID:)``.
struct CatalogHarness {
    let sandbox: ProviderSandbox
    let clock: ManualClock
    let jitter = FixedJitter()
    let database: TemporaryDatabase
    let store: any Store
    let transport = CurlTransport()
    let sync: CatalogSync
    let service: CatalogService
    let events: EventLog
    let interval: TimeInterval = 300

    /// Collected progress events.
    final class EventLog: Sendable {
        private let events = Mutex<[CatalogSyncEvent]>([])
        func append(_ event: CatalogSyncEvent) { events.withLock { $0.append(event) } }
        var all: [CatalogSyncEvent] { events.withLock { $0 } }
    }

    static func start(
        maxImageBytes: Int = 1 << 20, assetOrigin: String? = nil, development: Bool = false,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { _ in throw CancellationError() }
    ) async throws -> CatalogHarness {
        let clock = ManualClock()
        let sandbox = try await ProviderSandbox.start(configuration: .generated(clock: SandboxClock { clock.now }))
        // Neutral URLs on https, so cards are renderable under the current BatonCore (https only).
        // Production-like: neutral URLs on https. Development: the sandbox's own http://127.0.0.1 fixtures.
        try await sandbox.chia.publish(
            items: development ? nil : ChiaFixtures.items(neutralOrigin: "https://chia.example"), lifetime: 3600)
        let database = try TemporaryDatabase(.sqlite)
        let store = try await database.open()
        return try await CatalogHarness(
            sandbox: sandbox, clock: clock, database: database, store: store, maxImageBytes: maxImageBytes,
            assetOrigin: assetOrigin, development: development, sleep: sleep)
    }

    private init(
        sandbox: ProviderSandbox, clock: ManualClock, database: TemporaryDatabase, store: any Store, maxImageBytes: Int,
        assetOrigin: String?, development: Bool, sleep: @escaping @Sendable (Duration) async throws -> Void
    ) async throws {
        self.sandbox = sandbox
        self.clock = clock
        self.database = database
        self.store = store
        let events = EventLog()
        self.events = events
        let cache = CatalogCache()
        let origin = try #require(AssetOrigin(assetOrigin ?? sandbox.chiaOrigin, allowsLoopbackHTTP: true))
        let mirror = ImageMirror(
            origin: origin, apiKey: sandbox.configuration.chiaAPIKey, transport: transport, store: store,
            maxImageBytes: maxImageBytes)
        let jitter = self.jitter
        sync = CatalogSync(
            configuration: CatalogSync.Configuration(
                apiOrigin: sandbox.chiaOrigin, apiKey: sandbox.configuration.chiaAPIKey,
                publicOrigin: development ? developmentPublicOrigin : testPublicOrigin,
                schedule: CatalogSyncSchedule(interval: interval), instanceID: "instance-a",
                allowsLoopbackHTTP: development),
            store: store, transport: transport, mirror: mirror, cache: cache,
            environment: CatalogSync.Environment(
                now: { clock.now }, jitter: { jitter.next() }, sleep: sleep),
            onEvent: { events.append($0) })
        service = CatalogService(
            cache: cache, store: store, evidence: FixtureServiceStateProvider.sandbox,
            policy: CatalogDecisionPolicy(), now: { clock.now })
    }

    /// Another backend instance on the same database (its own store connection, cache and lease owner name).
    func makeInstance(instanceID: String) async throws -> (sync: CatalogSync, store: any Store) {
        let store = try await database.open()
        let origin = try #require(AssetOrigin(sandbox.chiaOrigin, allowsLoopbackHTTP: true))
        let mirror = ImageMirror(
            origin: origin, apiKey: sandbox.configuration.chiaAPIKey, transport: transport, store: store,
            maxImageBytes: 1 << 20)
        let clock = self.clock
        let sync = CatalogSync(
            configuration: CatalogSync.Configuration(
                apiOrigin: sandbox.chiaOrigin, apiKey: sandbox.configuration.chiaAPIKey,
                publicOrigin: testPublicOrigin, schedule: CatalogSyncSchedule(interval: interval),
                instanceID: instanceID),
            store: store, transport: transport, mirror: mirror, cache: CatalogCache(),
            environment: CatalogSync.Environment(now: { clock.now }, jitter: { 0.5 }))
        return (sync, store)
    }

    func shutdown() async {
        await sandbox.shutdown()
        await store.close()
        database.remove()
    }

    /// Posts a fault to the sandbox's Chia control API.
    func inject(_ fault: String) async throws {
        let response = try await transport.send(
            OutboundRequest(
                method: .post, url: sandbox.chiaOrigin + "/_sandbox/faults",
                headers: ["content-type": "application/json"],
                body: Array(fault.utf8)))
        try #require(response.status == 201, "fault rejected: \(response.bodyText)")
    }

    /// The provider calls Chia received, as `METHOD path status` lines.
    func chiaRequests() async throws -> [String] {
        let response = try await transport.send(OutboundRequest(url: sandbox.chiaOrigin + "/_sandbox/requests"))
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        let requests = object?["requests"] as? [[String: Any]] ?? []
        return requests.map { entry in
            "\(entry["method"] ?? "") \(entry["path"] ?? "") \(entry["status"].map { "\($0)" } ?? "-")"
        }
    }
}

/// Runs `body` with a started harness, shutting it down afterwards.
func withCatalogHarness(
    maxImageBytes: Int = 1 << 20, assetOrigin: String? = nil, development: Bool = false,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { _ in throw CancellationError() },
    _ body: (CatalogHarness) async throws -> Void
) async throws {
    let harness = try await CatalogHarness.start(
        maxImageBytes: maxImageBytes, assetOrigin: assetOrigin, development: development, sleep: sleep)
    do {
        try await body(harness)
        await harness.shutdown()
    } catch {
        await harness.shutdown()
        throw error
    }
}
