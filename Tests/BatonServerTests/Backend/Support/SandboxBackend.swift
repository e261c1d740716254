import BatonCore
import BatonCrypto
import BatonHTTP
import BatonSandbox
import BatonTestSupport
import Foundation
import Synchronization

@testable import BatonServer

/// The sandbox's three providers and a live backend configured for them, on 127.0.0.1, sharing one manual clock;
/// the sandbox's webhooks go to the backend's receivers over real HTTP.
struct SandboxBackend: Sendable {
    let sandbox: ProviderSandbox
    let fixture: BackendFixture
    let running: RunningBackend
    let clock: ManualClock
    let transport: CurlTransport
    let base: String

    static func run(_ engine: StoreEngine, _ body: (SandboxBackend) async throws -> Void) async throws {
        let clock = ManualClock()
        let environment = TestConfiguration.environment
        let sandboxConfiguration = try SandboxConfiguration(
            chiaAPIKey: Secret(environment["BATON_CHIA_API_KEY"]!),
            privueAPIKey: Secret(environment["BATON_PRIVUE_API_KEY"]!),
            bbAPIKey: Secret(environment["BATON_BB_API_KEY"]!), bbClientID: Secret(environment["BATON_BB_CLIENT_ID"]!),
            privueWebhookSecret: WebhookSecret(environment["BATON_PRIVUE_WEBHOOK_SECRET"]!)!,
            bbWebhookSecret: WebhookSecret(environment["BATON_BB_WEBHOOK_SECRET"]!)!,
            privueReturnURLs: ["https://app.example.com/kyc/done"],
            bbReturnURLs: ["https://app.example.com/bb-callback", "acmewallet://bb-callback"],
            clock: SandboxClock { clock.now })
        let transport = CurlTransport()
        let sandbox = try await ProviderSandbox.start(configuration: sandboxConfiguration, transport: transport)
        do {
            let configuration = try TestConfiguration.make(
                chia: sandbox.chiaOrigin, privue: sandbox.privueOrigin, bb: sandbox.bbOrigin)
            let fixture = try await BackendFixture.make(
                engine, configuration: configuration, transport: transport, clock: clock)
            fixture.catalog.set("cat_weight_care", TestCatalogProjection.share(version: "2025-06-01"))
            let running = try fixture.backend.start(host: "127.0.0.1", port: 0)
            let base = running.server.url("")
            sandbox.setWebhookTargets(privue: base + "/webhooks/privue", bb: base + "/webhooks/bb")
            let harness = SandboxBackend(
                sandbox: sandbox, fixture: fixture, running: running, clock: clock, transport: transport, base: base)
            do {
                try await body(harness)
            } catch {
                await harness.stop()
                throw error
            }
            await harness.stop()
        } catch {
            await sandbox.shutdown()
            throw error
        }
    }

    private func stop() async {
        await running.shutdown(grace: .seconds(2))
        await sandbox.shutdown()
        await fixture.close()
    }

    /// Sends a request to the backend as the app would, keeping the response for the hygiene scan.
    func app(
        _ method: HTTPMethod, _ path: String, user: String = "alice", headers: HTTPHeaders = [:], json: String? = nil
    ) async throws -> OutboundResponse {
        var headers = headers
        headers.set("authorization", "Bearer " + fixture.token(user))
        if json != nil { headers.set("content-type", "application/json") }
        let response = try await transport.send(
            OutboundRequest(method: method, url: base + path, headers: headers, body: Array((json ?? "").utf8)))
        fixture.record(response)
        return response
    }

    /// Drives a hosted journey to an outcome through the sandbox control API (as the user would in the browser).
    func complete(_ origin: String, journey id: String, _ json: String) async throws -> OutboundResponse {
        try await transport.send(
            OutboundRequest(
                method: .post, url: origin + "/_sandbox/journeys/\(id)/complete",
                headers: ["content-type": "application/json"], body: Array(json.utf8)))
    }

    /// A provider's control-API JSON (`/_sandbox/state`, `/_sandbox/requests`).
    func control(_ origin: String, _ path: String) async throws -> [String: Any] {
        let response = try await transport.send(OutboundRequest(url: origin + path))
        return (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    /// Opens a journey URL as a browser would (no redirects followed).
    func browse(_ url: String) async throws -> OutboundResponse {
        try await transport.send(OutboundRequest(url: url))
    }
}
