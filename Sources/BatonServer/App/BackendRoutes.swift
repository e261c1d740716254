import BatonCore
import BatonCrypto
import BatonHTTP
import Foundation

/// Builds the router: middleware, the services, and every route of CONTRACTS.md §2.
struct BackendRoutes {
    let configuration: BackendConfiguration
    let store: any Store
    let catalog: any CatalogComponent
    let options: BackendOverrides
    let metrics: BackendMetrics
    let processor: WebhookEventProcessor

    func makeRouter() -> Router {
        let now = options.now
        let transport = options.transport ?? CurlTransport()
        let policy = options.providerPolicy ?? ProviderCallPolicy(timeout: .seconds(configuration.providerTimeout))
        let caller = ProviderCaller(
            transport: transport, policy: policy, logger: options.logger, metrics: metrics,
            sleep: options.providerRetrySleep)
        let urls = URLPolicy(allowsLoopbackHTTP: configuration.allowsLoopbackHTTP)
        let seconds = Double(policy.worstCaseDuration.components.seconds)

        let handoff = HandoffSessionService(
            store: store,
            chia: ChiaClient(
                origin: configuration.chia.apiOrigin, apiKey: configuration.chia.apiKey, caller: caller, urls: urls,
                journeyHosts: configuration.chia.journeyHosts),
            catalog: catalog.projection,
            sealer: ResponseSealer(current: configuration.sealingKey, previous: configuration.previousSealingKeys),
            providerKeys: ProviderIdempotencyKeys(secret: configuration.idempotencySecret),
            waiters: IdempotencyWaiters(),
            options: options.handoff, lease: seconds + 5, instanceID: options.instanceID, metrics: metrics, now: now)
        let verification = VerificationService(
            store: store,
            privue: PrivueClient(
                origin: configuration.privue.apiOrigin, apiKey: configuration.privue.apiKey, caller: caller, urls: urls,
                journeyHosts: configuration.privue.journeyHosts),
            workflows: Set(configuration.privue.workflows), returnURL: configuration.privue.returnURL.string, now: now)
        var connectService = ConnectSessionService(
            store: store,
            bb: BBClient(
                origin: configuration.bb.apiOrigin, apiKey: configuration.bb.apiKey,
                clientID: configuration.bb.clientID,
                caller: caller, urls: urls, journeyHosts: configuration.bb.journeyHosts),
            httpsReturnURL: configuration.bb.httpsReturnURL,
            customSchemeReturnURL: configuration.bb.customSchemeReturnURL, now: now)
        if configuration.rateLimit.enabled {
            connectService.maxPending = configuration.rateLimit.maxPendingConnectSessions
        }
        let connect = connectService
        let privueHooks = WebhookReceiver(
            provider: .privue,
            verifier: StandardWebhookVerifier(
                key: configuration.privue.webhookSecret, previousKey: configuration.privue.previousWebhookSecret,
                previousUntil: configuration.privue.previousWebhookSecretUntil), store: store,
            processor: processor, metrics: metrics, logger: options.logger, now: now)
        let bbHooks = WebhookReceiver(
            provider: .bb,
            verifier: StandardWebhookVerifier(
                key: configuration.bb.webhookSecret, previousKey: configuration.bb.previousWebhookSecret,
                previousUntil: configuration.bb.previousWebhookSecretUntil), store: store,
            processor: processor, metrics: metrics, logger: options.logger, now: now)
        let wellKnown = WellKnownDocuments(configuration: configuration)

        // Every route runs through access log → metrics → store-failure mapping; the `/v2` group adds
        // authentication, and the provider-backed groups in it a per-user rate limit (docs/architecture.md).
        var router = Router()
        router.use(AccessLogMiddleware(logger: options.logger))
        router.use(MetricsMiddleware(metrics: metrics))
        router.use(StoreFailureMiddleware(outages: StoreOutageLog(logger: options.logger, now: now)))
        let authentication = AuthenticationMiddleware(
            authenticator: SignedTokenAuthenticator(configuration: configuration), now: now, logger: options.logger,
            metrics: metrics)
        let limited: [any HTTPMiddleware] =
            configuration.rateLimit.enabled
            ? [RateLimitMiddleware(store: store, limit: configuration.rateLimit, now: now, metrics: metrics)] : []

        router.group("/v2", middleware: [authentication]) { v2 in
            v2.group("/handoff-sessions", middleware: limited, attributes: .storeBacked) { shares in
                shares.post("", attributes: .createsProviderSessionTakingItsOwnToken) { try await handoff.create($0) }
            }
            v2.group("/verification-handoffs", middleware: limited, attributes: .storeBacked) { handoffs in
                handoffs.post("", attributes: .createsProviderSession) { try await verification.createHandoff($0) }
            }
            v2.group("/verifications", middleware: limited, attributes: .storeBacked) { verifications in
                verifications.get("/{workflow}") { try await verification.status($0) }
            }
            v2.group("/connect-sessions", middleware: limited, attributes: .storeBacked) { sessions in
                sessions.post("", attributes: .createsProviderSession) { try await connect.create($0) }
                sessions.get("/{sessionId}") { try await connect.read($0) }
            }
            // The catalog pipeline mounts GET /v2/catalog here (and GET /assets/… below, outside the group).
            catalog.registerRoutes(on: &v2)
        }
        router.group("/webhooks", attributes: .storeBacked) { hooks in
            hooks.post("/privue") { try await privueHooks.receive($0) }
            hooks.post("/bb") { try await bbHooks.receive($0) }
        }
        router.get("/.well-known/apple-app-site-association") { _ in try wellKnown.appleAppSiteAssociation() }
        router.get("/.well-known/assetlinks.json") { _ in try wellKnown.assetLinks() }
        router.get("/healthz") { _ in .text("ok\n") }
        // The public readiness answer is bare: which part is missing is for the operator (the admin listener).
        router.get("/readyz", attributes: .storeBacked) { [self] _ in
            let ready = await readiness().ready
            return .text(ready ? "ready\n" : "not ready\n", status: ready ? 200 : 503)
        }
        OpenAPIDocument.register(on: &router)
        // GET at exactly each registered https return path: the page a browser shows when the app did not open.
        ReturnLandingRoutes(configuration: configuration).install(into: &router)
        catalog.registerPublicRoutes(on: &router)
        if options.servesWebShell || configuration.servesWebShell { mountWebShell(on: &router) }
        return router
    }

    /// The admin listener's routes (`server.adminPort`, loopback by default): liveness, the detailed readiness body,
    /// and `/metrics`, whose refusal counters by reason must not reach whoever sends forged tokens.
    func makeAdminRouter() -> Router {
        let now = options.now
        var router = Router()
        router.use(AccessLogMiddleware(logger: options.logger))
        router.get("/healthz") { _ in .text("ok\n") }
        router.get("/readyz") { [self] _ in
            let (ready, storeReady, catalogReady) = await readiness()
            let lines = [
                ready ? "ready" : "not ready",
                "store: " + (storeReady ? "ok" : "unreachable or not migrated"),
                "catalog: " + (catalogReady ? "publication loaded" : "no publication loaded yet"),
            ]
            return .text(lines.joined(separator: "\n") + "\n", status: ready ? 200 : 503)
        }
        router.get("/metrics") { [metrics, catalog] _ in
            let text = metrics.render() + catalog.metricsText(now: now())
            return HTTPResponse(
                status: 200, headers: ["content-type": "text/plain; version=0.0.4; charset=utf-8"],
                body: Array(text.utf8))
        }
        return router
    }

    /// Ready when the store is reachable with its migrations applied and a catalog publication is loaded.
    private func readiness() async -> (ready: Bool, store: Bool, catalog: Bool) {
        // A read of the idempotency table proves the store is reachable and its migrations are applied.
        var storeReady = true
        do { _ = try await store.idempotencyRecord(user: "", key: "readyz") } catch { storeReady = false }
        let catalogReady = catalog.hasPublication
        return (storeReady && catalogReady, storeReady, catalogReady)
    }

    /// Mounts the web reference shell under `/web/`. Its files are compiled in (the `EmbedTextFiles` plugin), so
    /// there is nothing to read, and nothing that can fail, at start-up.
    private func mountWebShell(on router: inout Router) {
        WebShell(configuration: configuration, devSignInSecret: options.devSignInSecret, now: options.now)
            .install(into: &router)
    }
}
