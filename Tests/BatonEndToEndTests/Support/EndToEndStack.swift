import BatonClient
import BatonCore
import BatonCrypto
import BatonHTTP
import BatonSandbox
import BatonServer
import BatonTestSupport
import Foundation

/// The provider sandbox and a live backend (SQLite in a temporary folder, the real catalog pipeline with the
/// sandbox's fixture evidence) on 127.0.0.1, and an app-side backend client per user: what the headless app runs
/// against. Its backend clients decode under `URLPolicy.development` (the sandbox serves plain loopback http).
struct EndToEndStack: Sendable {
    static let privueReturnURL = "https://app.example.com/kyc/done"
    static let bbReturnURLs = ["https://app.example.com/bb-callback", "acmewallet://bb-callback"]
    static let workflow = "merchant-onboarding"
    /// `returnLanding.openHost`: the second associated host the landing pages' "Return to the app" link goes to.
    static let openHost = "open.app.example.com"

    let sandbox: ProviderSandbox
    let running: RunningBackend
    let configuration: BackendConfiguration
    let sandboxClock: ManualClock
    let base: String
    let transport: CurlTransport

    static func run(_ body: @Sendable (EndToEndStack) async throws -> Void) async throws {
        do {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-e2e-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let secrets = try secretEnvironment()
            // The sandbox's clock starts now and only moves when a test moves it (to expire a handoff).
            let sandboxClock = ManualClock(Date())
            let sandbox = try await ProviderSandbox.start(
                configuration: SandboxConfiguration(
                    chiaAPIKey: Secret(secrets["BATON_CHIA_API_KEY"]!),
                    privueAPIKey: Secret(secrets["BATON_PRIVUE_API_KEY"]!),
                    bbAPIKey: Secret(secrets["BATON_BB_API_KEY"]!), bbClientID: Secret(secrets["BATON_BB_CLIENT_ID"]!),
                    privueWebhookSecret: WebhookSecret(secrets["BATON_PRIVUE_WEBHOOK_SECRET"]!)!,
                    bbWebhookSecret: WebhookSecret(secrets["BATON_BB_WEBHOOK_SECRET"]!)!,
                    privueReturnURLs: [privueReturnURL], bbReturnURLs: bbReturnURLs,
                    clock: SandboxClock { sandboxClock.now }))
            let configuration = try backendConfiguration(
                sandbox: sandbox, secrets: secrets, database: "sqlite:\(directory.path)/baton.sqlite")
            var overrides = BackendOverrides()
            overrides.logger = Logger(sink: DiscardLogSink())
            let backend = try await BatonBackend.build(
                configuration: configuration, evidence: FixtureServiceStateProvider.sandbox, overrides: overrides)
            let store = backend.store
            await backend.catalogPipeline?.sync.syncOnce()
            let running = try backend.start(host: "127.0.0.1", port: 0)
            let base = running.server.url("")
            sandbox.setWebhookTargets(privue: base + "/webhooks/privue", bb: base + "/webhooks/bb")
            let stack = EndToEndStack(
                sandbox: sandbox, running: running, configuration: configuration, sandboxClock: sandboxClock,
                base: base, transport: CurlTransport())
            do {
                try await body(stack)
            } catch {
                await stack.stop(store)
                throw error
            }
            await stack.stop(store)
        }
    }

    private func stop(_ store: any Store) async {
        await running.shutdown(grace: .seconds(2))
        await sandbox.shutdown()
        await store.close()
    }

    /// The app's backend client for `user`, with a token the backend accepts.
    func client(user: String = "alice") -> URLSessionBackendClient {
        let token = Secret(
            SignedTokenAuthenticator(configuration: configuration).token(
                for: user, expiresAt: Date().addingTimeInterval(3600)))
        return URLSessionBackendClient(baseURL: URL(string: base)!, tokenProvider: { token }, urls: .development)
    }

    /// A provider's control-API JSON (`/_sandbox/state`, `/_sandbox/requests`).
    func control(_ origin: String, _ path: String) async throws -> [String: Any] {
        let response = try await transport.send(OutboundRequest(url: origin + path))
        return (try JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    /// Adds a fault rule on a provider (`POST /_sandbox/faults`).
    func fault(_ origin: String, _ json: String) async throws {
        let response = try await transport.send(
            OutboundRequest(
                method: .post, url: origin + "/_sandbox/faults", headers: ["content-type": "application/json"],
                body: Array(json.utf8)))
        guard response.status == 201 else { throw FaultRejected() }
    }

    struct FaultRejected: Error {}

    private static func secretEnvironment() throws -> [String: String] {
        func token(_ prefix: String) throws -> String { prefix + Hex.encode(try SecureRandom.bytes(count: 16)) }
        func base64() throws -> String { Data(try SecureRandom.bytes(count: 32)).base64EncodedString() }
        return [
            "BATON_TOKEN_SIGNING_KEY": try base64(), "BATON_SEALING_KEY": try base64(),
            "BATON_CHIA_API_KEY": try token("chia_test_"), "BATON_PRIVUE_API_KEY": try token("pv_test_"),
            "BATON_PRIVUE_WEBHOOK_SECRET": "whsec_" + (try base64()), "BATON_BB_API_KEY": try token("bb_test_"),
            "BATON_BB_CLIENT_ID": try token("cli_"), "BATON_BB_WEBHOOK_SECRET": "whsec_" + (try base64()),
        ]
    }

    private static func backendConfiguration(
        sandbox: ProviderSandbox, secrets: [String: String], database: String
    ) throws -> BackendConfiguration {
        try BackendConfiguration.sandbox(
            SandboxBackendSettings(
                port: 8080, publicOrigin: "http://127.0.0.1:8080", database: database, chiaOrigin: sandbox.chiaOrigin,
                privueOrigin: sandbox.privueOrigin, privueReturnURL: privueReturnURL, privueWorkflows: [workflow],
                bbOrigin: sandbox.bbOrigin, bbHTTPSReturnURL: bbReturnURLs[0], bbCustomSchemeReturnURL: bbReturnURLs[1],
                returnLanding: BackendConfiguration.ReturnLanding(openHost: openHost)),
            environment: secrets)
    }
}
