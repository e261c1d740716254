import BatonCore
import BatonHTTP
import BatonSandbox
import BatonServer
import Foundation

@testable import BatonCLI

/// A `baton sandbox` and a backend configured against it, in this process, and the broken backends
/// `baton verify-backend` must catch: small proxies in front of the working backend, each breaking one rule.
struct VerifyBackendStack {
    let stack: BackendStack
    let sandbox: ProviderSandbox
    let signer: SignedTokenAuthenticator
    let directory: URL

    /// - Parameter rateLimited: keep the per-user rate limit on (the default); off for a run where one user makes
    ///   every request, more than a per-user limit on creates allows.
    static func start(rateLimited: Bool = true) async throws -> VerifyBackendStack {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-verify-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let secrets = try DevelopmentSecrets.loadOrCreate(in: directory.path)
        let sandbox = try await ProviderSandbox.start(
            configuration: try SandboxDevelopment.sandboxConfiguration(secrets: secrets), ports: .ephemeral,
            logger: Logger(sink: DiscardLogSink()))
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = ServeCommandTests.freePortRun()
            do {
                var configuration = try SandboxDevelopment.configuration(
                    sandbox: sandbox, secrets: secrets, host: "127.0.0.1", port: port,
                    database: "sqlite:\(directory.path)/backend.sqlite")
                configuration.rateLimit.enabled = rateLimited
                let stack = try await BackendStack.start(
                    configuration: configuration, providers: nil, evidence: FixtureServiceStateProvider.sandbox,
                    syncFirst: true, logger: Logger(sink: DiscardLogSink()), onSyncEvent: { _ in })
                return VerifyBackendStack(
                    stack: stack, sandbox: sandbox, signer: SignedTokenAuthenticator(configuration: configuration),
                    directory: directory)
            } catch {
                lastError = error
            }
        }
        await sandbox.shutdown()
        throw lastError ?? CLIFailure("no backend")
    }

    /// The kit's options for `base`, minting tokens with the backend's key.
    func options(base: String? = nil, flows: Set<VerifyFlow> = Set(VerifyFlow.allCases)) -> BackendVerifier.Options {
        let signer = signer
        var options = BackendVerifier.Options(
            base: base ?? stack.base,
            tokens: .mint { user in signer.token(for: user, expiresAt: Date().addingTimeInterval(600)) },
            sandbox: [sandbox.chiaOrigin, sandbox.privueOrigin, sandbox.bbOrigin])
        options.flows = flows
        return options
    }

    func stop() async {
        await stack.stop(grace: .seconds(1))
        await sandbox.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// One rule a broken backend breaks.
enum Breakage: String, Sendable, CaseIterable {
    /// `POST /v2/handoff-sessions` calls Chia itself with the app's own `Idempotency-Key`.
    case forwardsAppKey
    /// `Cache-Control` is removed from every answer.
    case dropsNoStore
    /// A webhook the backend refused (4xx) is answered 200.
    case acceptsRefusedWebhooks
}

/// A proxy in front of a working backend that breaks one rule (``Breakage``) and passes everything else on.
final class BrokenBackend: Sendable {
    let server: HTTPServer

    private init(server: HTTPServer) { self.server = server }

    var base: String { server.url("") }

    static func start(_ breakage: Breakage, in stack: VerifyBackendStack) throws -> BrokenBackend {
        let transport = CurlTransport()
        let backend = stack.stack.base
        let chia = stack.sandbox.chiaOrigin
        let chiaKey = stack.sandbox.configuration.chiaAPIKey.revealForUse()
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.logger = Logger(sink: DiscardLogSink())
        let server = try HTTPServer.start(configuration) { request in
            var headers = HTTPHeaders()
            for field in request.headers where !["host", "content-length"].contains(field.name.lowercased()) {
                headers.add(field.name, field.value)
            }
            let target = request.path + (request.query.map { "?" + $0 } ?? "")
            if breakage == .forwardsAppKey, request.method == .post, request.path == "/v2/handoff-sessions" {
                // Authenticated by the real backend (its catalog), then Chia is called with the app's key.
                let check = OutboundRequest(
                    url: backend + "/v2/catalog",
                    headers: HTTPHeaders(
                        headers.filter { $0.name.lowercased() == "authorization" }.map {
                            ($0.name, $0.value)
                        }))
                let auth = try await transport.send(check)
                guard auth.status == 200 else {
                    return HTTPResponse(status: auth.status, headers: auth.headers, body: auth.body)
                }
                var upstream: HTTPHeaders = ["authorization": "Bearer " + chiaKey, "content-type": "application/json"]
                if let key = request.headers["idempotency-key"] { upstream.set("idempotency-key", key) }
                let answer = try await transport.send(
                    OutboundRequest(
                        method: .post, url: chia + "/v2/handoff-sessions", headers: upstream, body: request.body))
                var kept = HTTPHeaders()
                for field in answer.headers
                where ["content-type", "idempotent-replayed", "retry-after"].contains(field.name.lowercased()) {
                    kept.add(field.name, field.value)
                }
                if answer.status == 201 { kept.set("cache-control", "no-store") }
                return HTTPResponse(status: answer.status, headers: kept, body: answer.body)
            }
            let answer = try await transport.send(
                OutboundRequest(method: request.method, url: backend + target, headers: headers, body: request.body))
            var response = HTTPResponse(status: answer.status, body: answer.body)
            for field in answer.headers
            where !["content-length", "connection", "date"].contains(field.name.lowercased()) {
                response.headers.add(field.name, field.value)
            }
            switch breakage {
            case .dropsNoStore:
                response.headers.remove("cache-control")
                response.headers.remove("pragma")
            case .acceptsRefusedWebhooks
            where request.path.hasPrefix("/webhooks/") && (400..<500).contains(answer.status):
                response = HTTPResponse(
                    status: 200, headers: ["content-type": "application/json"],
                    body: Array(#"{"status":"accepted"}"#.utf8))
            default:
                break
            }
            return response
        }
        return BrokenBackend(server: server)
    }

    func stop() async { await server.shutdown(grace: .seconds(1)) }
}
