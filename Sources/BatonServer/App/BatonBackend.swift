import BatonCore
import BatonHTTP
import Foundation

/// The partner backend, assembled: every app-facing, webhook, well-known and operations route on one `Router`,
/// over one ``Store``, talking to the three providers, with the Chia catalog pipeline always mounted.
///
/// ```swift
/// let backend = try await BatonBackend.build(configuration: configuration, evidence: myAccountSystem)
/// let running = try backend.start()                  // HTTP server + background maintenance + catalog work
/// // … tests can also call backend.router directly (in-process) with `router.test(.inProcess) { … }`
/// await running.shutdown(grace: .seconds(10))
/// ```
/// ``build(configuration:evidence:overrides:)`` is the one way to assemble it.
public final class BatonBackend: Sendable {
    /// The configuration it runs with.
    public let configuration: BackendConfiguration
    /// The store it keeps everything in.
    public let store: any Store
    /// Its counters (`GET /metrics`).
    public let metrics: BackendMetrics
    /// Every route, behind access logging, metrics and authentication.
    public let router: Router
    /// The admin listener's routes: `/healthz`, the detailed `/readyz` and `/metrics` (``RunningBackend/admin``).
    public let adminRouter: Router
    /// The catalog part: the pipeline ``build(configuration:evidence:overrides:)`` assembled, or the
    /// ``BackendOverrides/catalog`` that replaced it.
    public let catalog: any CatalogComponent
    /// The Chia catalog pipeline (its sync and service), `nil` only when ``BackendOverrides/catalog`` replaced it.
    public let catalogPipeline: CatalogPipeline?

    private let options: BackendOverrides
    private let processor: WebhookEventProcessor

    /// Wires the routes over `store`; ``build(configuration:evidence:overrides:)`` is the public way in.
    init(
        configuration: BackendConfiguration, store: any Store, catalog: any CatalogComponent,
        pipeline: CatalogPipeline?, options: BackendOverrides
    ) {
        self.configuration = configuration
        self.store = store
        // The configuration's retention is the one source: the share route stamps records with it, maintenance
        // purges by it.
        var options = options
        options.handoff.retention = configuration.retention.idempotencyRecords
        self.options = options
        self.catalog = catalog
        self.catalogPipeline = pipeline
        let metrics = BackendMetrics()
        self.metrics = metrics
        let processor = WebhookEventProcessor(store: store, now: options.now)
        self.processor = processor
        let routes = BackendRoutes(
            configuration: configuration, store: store, catalog: catalog, options: options, metrics: metrics,
            processor: processor)
        self.router = routes.makeRouter()
        self.adminRouter = routes.makeAdminRouter()
    }

    /// One round of maintenance: erase sealed responses whose URL expired, delete idempotency records, connect
    /// sessions, processed webhook events, superseded verifications, idle rate-limit buckets and image bytes the
    /// stored catalog no longer shows past retention, and apply webhook events whose inline processing did not
    /// finish. A purge that removed anything logs one `idempotency_purged` line (counts, write batches and how long
    /// it took).
    public func runMaintenance() async throws {
        let started = ContinuousClock.now
        let purge = try await store.purgeIdempotency(now: options.now(), retention: options.handoff.retention)
        if purge.recordsDeleted > 0 || purge.responsesErased > 0 {
            let elapsed = (ContinuousClock.now - started).components
            options.logger.log(
                .info, "idempotency_purged",
                [
                    "records_deleted": .int(purge.recordsDeleted), "responses_erased": .int(purge.responsesErased),
                    "batches": .int(purge.batches),
                    "duration_ms": .double(Double(elapsed.seconds) * 1e3 + Double(elapsed.attoseconds) / 1e15),
                ])
        }
        var retention = configuration.retention.records
        // A bucket idle for its full refill time is full again: the same as no row.
        let refill = TimeInterval(configuration.rateLimit.burst) * 60 / TimeInterval(configuration.rateLimit.perMinute)
        retention.rateLimitBuckets = max(retention.rateLimitBuckets, refill)
        // Image bytes are purged only against a stored catalog (none yet: keep everything).
        let catalog = try await store.latestCatalogSnapshot().flatMap { try? CatalogSnapshotBody.decode($0.body) }
        let purgeStarted = ContinuousClock.now
        let records = try await store.purgeRecords(
            now: options.now(), retention: retention, keepingAssets: catalog.map { Set($0.images.values.map(\.sha256)) }
        )
        let removed =
            records.connectSessions + records.webhookEvents + records.rateLimitBuckets + records.verifications
            + records.assetBytes
        if removed > 0 {
            let elapsed = (ContinuousClock.now - purgeStarted).components
            options.logger.log(
                .info, "records_purged",
                [
                    "connect_sessions": .int(records.connectSessions), "webhook_events": .int(records.webhookEvents),
                    "rate_limit_buckets": .int(records.rateLimitBuckets), "verifications": .int(records.verifications),
                    "asset_bytes": .int(records.assetBytes), "batches": .int(records.batches),
                    "duration_ms": .double(Double(elapsed.seconds) * 1e3 + Double(elapsed.attoseconds) / 1e15),
                ])
        }
        try await processor.drain(owner: options.instanceID)
    }

    /// Starts the HTTP server (on the configured host and port unless given), the admin listener
    /// (`server.adminHost`:`server.adminPort` unless given; `0` picks a free port) and the background work.
    public func start(
        host: String? = nil, port: Int? = nil, adminPort: Int? = nil
    ) throws(HTTPServerError) -> RunningBackend {
        var admin = HTTPServerConfiguration()
        admin.host = configuration.server.adminHost
        admin.port = UInt16(clamping: adminPort ?? configuration.server.adminPort)
        admin.threadPoolSize = 1
        admin.logger = options.logger
        let adminServer = try HTTPServer.start(admin, router: adminRouter)
        var server = HTTPServerConfiguration()
        server.host = host ?? configuration.server.host
        server.port = UInt16(clamping: port ?? configuration.server.port)
        server.threadPoolSize = configuration.server.threads
        server.limits.maxConnectionsPerAddress = configuration.server.maxConnectionsPerAddress
        server.limits.maxConnections = configuration.server.maxConnections
        server.logger = options.logger
        let http: HTTPServer
        do {
            http = try HTTPServer.start(server, router: router)
        } catch {
            Task { await adminServer.shutdown(grace: .zero) }
            throw error
        }
        let interval = configuration.retention.maintenanceInterval
        let logger = options.logger
        let maintenance = Task { [self] in
            while !Task.isCancelled {
                do {
                    try await runMaintenance()
                } catch {
                    logger.log(.warning, "maintenance_failed", ["error_type": .string("\(type(of: error))")])
                }
                try? await Task.sleep(for: interval)
            }
        }
        let catalog = self.catalog
        let catalogWork = Task { await catalog.run() }
        return RunningBackend(server: http, admin: adminServer, background: [maintenance, catalogWork])
    }
}

/// A started backend: its server and background tasks.
public final class RunningBackend: Sendable {
    /// The HTTP server (its `HTTPServer.port` is the one picked when asked for port 0).
    public let server: HTTPServer
    /// The admin listener (`/metrics`, the detailed `/readyz`), loopback unless `server.adminHost` says otherwise.
    public let admin: HTTPServer
    private let background: [Task<Void, Never>]

    init(server: HTTPServer, admin: HTTPServer, background: [Task<Void, Never>]) {
        self.server = server
        self.admin = admin
        self.background = background
    }

    /// Stops background work, drains in-flight requests for up to `grace`, and stops the server.
    public func shutdown(grace: Duration = .seconds(10)) async {
        for task in background { task.cancel() }
        await server.shutdown(grace: grace)
        await admin.shutdown(grace: .seconds(1))
        for task in background { await task.value }
    }
}
