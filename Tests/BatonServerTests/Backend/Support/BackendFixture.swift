import BatonCore
import BatonHTTP
import BatonHTTPTesting
import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Synchronization
import Testing

@testable import BatonServer

/// The engines backend tests run on: SQLite always, PostgreSQL when `BATON_TEST_POSTGRES_URL` is set.
enum BackendEngines {
    static var available: [StoreEngine] { TemporaryDatabase.availableEngines }
}

/// Secrets and a configuration for tests; the provider origins are whatever the test points them at.
enum TestConfiguration {
    static let environment: [String: String] = [
        "BATON_TOKEN_SIGNING_KEY": "test-token-signing-key-0123456789abcdef",
        "BATON_SEALING_KEY": Data(repeating: 7, count: 32).base64EncodedString(),
        "BATON_CHIA_API_KEY": "chia_test_SECRETKEY_0123456789",
        "BATON_PRIVUE_API_KEY": "pv_test_SECRETKEY_0123456789",
        "BATON_PRIVUE_WEBHOOK_SECRET": "whsec_" + Data(repeating: 1, count: 32).base64EncodedString(),
        "BATON_BB_API_KEY": "bb_test_SECRETKEY_0123456789",
        "BATON_BB_CLIENT_ID": "cli_test_client",
        "BATON_BB_WEBHOOK_SECRET": "whsec_" + Data(repeating: 2, count: 32).base64EncodedString(),
    ]

    static func make(
        chia: String = "http://127.0.0.1:9", privue: String = "http://127.0.0.1:9", bb: String = "http://127.0.0.1:9",
        environment: [String: String] = environment
    ) throws -> BackendConfiguration {
        func pin(_ origin: String) -> String { JourneyHostPins.pin(forOrigin: origin) ?? "?" }
        let file = """
            {
              "development": {"allowLoopbackHTTP": true},
              "rateLimit": {"createBurst": 60, "createPerMinute": 60},
              "server": {"host": "127.0.0.1", "port": 8080, "publicOrigin": "https://partner.example", "adminPort": 0},
              "chia": {"apiOrigin": "\(chia)", "assetOrigin": "\(chia)",
                       "journeyHosts": ["\(pin(chia))", "chia.example"]},
              "privue": {"apiOrigin": "\(privue)", "returnURL": "https://app.example.com/kyc/done",
                         "workflows": ["merchant-onboarding"], "journeyHosts": ["\(pin(privue))"]},
              "bb": {"apiOrigin": "\(bb)", "journeyHosts": ["\(pin(bb))"],
                     "returnURLs": {"https": "https://app.example.com/bb-callback",
                                    "customScheme": "acmewallet://bb-callback"}},
              "apps": {"apple": {"appIDs": ["ABCDE12345.com.example.wallet"]},
                       "android": {"packageName": "com.example.wallet",
                                   "sha256CertFingerprints": ["\(Array(repeating: "AB", count: 32).joined(separator: ":"))"]}}
            }
            """
        return try BackendConfiguration.load(json: Data(file.utf8), environment: environment)
    }
}

/// One backend under test: configuration, a fresh private store, a scripted provider transport, a manual clock,
/// captured logs, and a test catalog projection.
final class BackendFixture: Sendable {
    let configuration: BackendConfiguration
    let store: any Store
    let backend: BatonBackend
    let transport: ScriptedTransport
    let clock: ManualClock
    let logs: InMemoryLogSink
    let catalog: TestCatalogProjection
    private let database: TemporaryDatabase
    private let captured = Mutex<[OutboundResponse]>([])

    /// Keeps `response` for the hygiene scan.
    func record(_ response: OutboundResponse) { captured.withLock { $0.append(response) } }

    /// Every response the fixture's API received, for the hygiene scan.
    var responses: [OutboundResponse] { captured.withLock { $0 } }

    private init(
        configuration: BackendConfiguration, store: any Store, backend: BatonBackend, transport: ScriptedTransport,
        clock: ManualClock, logs: InMemoryLogSink, catalog: TestCatalogProjection, database: TemporaryDatabase
    ) {
        self.configuration = configuration
        self.store = store
        self.backend = backend
        self.transport = transport
        self.clock = clock
        self.logs = logs
        self.catalog = catalog
        self.database = database
    }

    /// Builds a fixture; `configure` adjusts the options (join timeout, provider policy…) before assembly.
    static func make(
        _ engine: StoreEngine, configuration: BackendConfiguration? = nil, transport: (any HTTPTransport)? = nil,
        clock: ManualClock = ManualClock(), configure: (inout BackendOverrides) -> Void = { _ in }
    ) async throws -> BackendFixture {
        let configuration = try configuration ?? TestConfiguration.make()
        let database = try TemporaryDatabase(engine)
        let store = try await database.open()
        let scripted = ScriptedTransport()
        let logs = InMemoryLogSink()
        let catalog = TestCatalogProjection()
        var options = BackendOverrides()
        options.now = { clock.now }
        options.logger = Logger(sink: logs, now: { clock.now })
        options.transport = transport ?? scripted
        options.providerPolicy = ProviderCallPolicy(timeout: .seconds(5), maxAttempts: 2)
        options.providerRetrySleep = { _ in }
        options.instanceID = "test-instance"
        options.catalog = TestCatalogComponent(projection: catalog)
        options.store = store
        configure(&options)
        let backend = try await BatonBackend.build(
            configuration: configuration, evidence: NoEvidenceServiceStateProvider(), overrides: options)
        return BackendFixture(
            configuration: configuration, store: store, backend: backend, transport: scripted, clock: clock,
            logs: logs, catalog: catalog, database: database)
    }

    /// Closes the store and removes its database.
    func close() async {
        await store.close()
        database.remove()
    }

    /// A bearer token for `user`, valid for an hour of the fixture's clock.
    func token(_ user: String) -> String {
        SignedTokenAuthenticator(configuration: configuration).token(
            for: user, expiresAt: clock.now.addingTimeInterval(3600), issuedAt: clock.now)
    }

    /// Runs `body` against the backend's router in `mode`, then closes the fixture.
    func run(_ mode: HTTPTestMode = .inProcess, _ body: (API) async throws -> Void) async throws {
        do {
            try await backend.router.test(mode) { client in try await body(API(client: client, fixture: self)) }
            await close()
        } catch {
            await close()
            throw error
        }
    }

    /// Requests to the backend as an app (or a provider) would send them; every response is kept for the hygiene
    /// scan.
    struct API: Sendable {
        let client: HTTPTestClient
        let fixture: BackendFixture

        func send(
            _ method: HTTPMethod, _ path: String, user: String? = "alice", headers: HTTPHeaders = [:],
            body: String? = nil
        ) async throws -> OutboundResponse {
            var headers = headers
            if let user { headers.set("authorization", "Bearer " + fixture.token(user)) }
            if body != nil { headers.set("content-type", "application/json") }
            let response = try await client.execute(method, path, headers: headers, body: Array((body ?? "").utf8))
            fixture.record(response)
            return response
        }

        /// A GET on the admin listener's routes (`/metrics`, the detailed `/readyz`), in-process.
        func admin(_ path: String) async throws -> OutboundResponse {
            let response = try await fixture.backend.adminRouter.test(.inProcess) { try await $0.execute(.get, path) }
            fixture.record(response)
            return response
        }
    }
}

/// Parses a JSON object body.
func jsonObject(_ response: OutboundResponse) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
}
