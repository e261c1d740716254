import BatonCore
import BatonHTTP
import BatonSandbox
import BatonServer
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What `baton serve` and `baton demo` run: the backend over its store with the catalog pipeline mounted, and, in
/// sandbox mode, the provider simulators it talks to.
struct BackendStack: Sendable {
    let configuration: BackendConfiguration
    let store: any Store
    let providers: ProviderSandbox?
    let running: RunningBackend
    /// The per-run secret of the web shell's dev sign-in (the sandbox stack only), also in ``devSignInSecretFile``.
    var devSignInSecret: Secret? = nil

    /// Where the sandbox stack writes its per-run dev sign-in secret (mode 0600), for scripts on this machine.
    static var devSignInSecretFile: String { DevelopmentSecrets.directory + "/dev-sign-in-secret" }

    /// The backend's base URL, `http://host:port`.
    var base: String { running.server.url("") }

    /// The `--sandbox` stack: simulators on PORT+1..+3 with the development secrets of `./.baton/`, a backend on
    /// `host:port` configured for them, and the sandbox's fixture evidence (``FixtureServiceStateProvider/sandbox``).
    ///
    /// - Parameters:
    ///   - sandboxClock: the simulators' clock, shiftable so that the demo and `POST /_sandbox/clock` can expire a
    ///     handoff without waiting.
    ///   - syncFirst: run one catalog sync before serving, so the first `GET /v2/catalog` has cards.
    ///   - onSyncEvent: catalog sync progress lines.
    static func startSandbox(
        host: String, port: Int, database: String?, sandboxClock: SandboxClock = .shiftable(), syncFirst: Bool = false,
        rateLimit: BackendConfiguration.RateLimit? = nil, logger: Logger = Logger(),
        onSyncEvent: @escaping @Sendable (CatalogSyncEvent) -> Void
    ) async throws -> BackendStack {
        let secrets = try DevelopmentSecrets.loadOrCreate()
        let providers = try await SandboxDevelopment.startSandbox(
            secrets: secrets, host: host, port: port, clock: sandboxClock)
        do {
            var configuration = try SandboxDevelopment.configuration(
                sandbox: providers, secrets: secrets, host: host, port: port,
                database: database ?? "sqlite:\(DevelopmentSecrets.directory)/baton.sqlite")
            // Repeated demo runs and QA sessions share one store and one user: the create bucket is the general one
            // here and no pending cap applies, unless --rate-limit says otherwise.
            configuration.rateLimit.createBurst = configuration.rateLimit.burst
            configuration.rateLimit.createPerMinute = configuration.rateLimit.perMinute
            configuration.rateLimit.maxPendingConnectSessions = 0
            if let rateLimit { configuration.rateLimit = rateLimit }
            // A fresh secret every run: a relayed request cannot know it (docs/production.md, development switches).
            let secret = WebDevSignIn.generateSecret()
            try writeDevSignInSecret(secret)
            var stack = try await start(
                configuration: configuration, providers: providers, evidence: FixtureServiceStateProvider.sandbox,
                syncFirst: syncFirst, logger: logger, devSignInSecret: secret, onSyncEvent: onSyncEvent)
            stack.devSignInSecret = secret
            return stack
        } catch {
            await providers.shutdown()
            throw error
        }
    }

    /// Builds the backend (``BatonBackend/build(configuration:evidence:overrides:)``: its store, the catalog pipeline
    /// with `evidence`, every route) and starts it; `devSignInSecret` (the sandbox stack only) mounts
    /// `POST /web/dev-token`, answering requests that carry it.
    static func start(
        configuration: BackendConfiguration, providers: ProviderSandbox?, evidence: any ServiceStateProvider,
        syncFirst: Bool = false, logger: Logger = Logger(), devSignInSecret: Secret? = nil,
        onSyncEvent: @escaping @Sendable (CatalogSyncEvent) -> Void
    ) async throws -> BackendStack {
        var overrides = BackendOverrides()
        // The sandbox and the demo always serve the web shell; otherwise only webShell.enabled does.
        overrides.servesWebShell = providers != nil
        overrides.logger = logger
        overrides.devSignInSecret = devSignInSecret
        overrides.onCatalogEvent = onSyncEvent
        let backend = try await BatonBackend.build(
            configuration: configuration, evidence: evidence, overrides: overrides)
        do {
            if syncFirst { await backend.catalogPipeline?.sync.syncOnce() }
            let running = try backend.start()
            return BackendStack(
                configuration: configuration, store: backend.store, providers: providers, running: running)
        } catch {
            await backend.store.close()
            throw error
        }
    }

    /// Writes `secret` to ``devSignInSecretFile`` (replacing the last run's), readable by this user only.
    private static func writeDevSignInSecret(_ secret: Secret) throws {
        let path = devSignInSecretFile
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw CLIFailure("cannot write \(path)") }
        defer { close(descriptor) }
        let bytes = Array((secret.revealForUse() + "\n").utf8)
        guard FileDescriptorIO.writeAll(bytes, to: descriptor).isComplete else {
            throw CLIFailure("cannot write \(path)")
        }
    }

    /// Drains the backend for up to `grace`, closes the store and stops the simulators.
    func stop(grace: Duration = .seconds(10)) async {
        await running.shutdown(grace: grace)
        await store.close()
        await providers?.shutdown()
    }
}
