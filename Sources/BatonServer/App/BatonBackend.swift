import BatonCore
import BatonHTTP
import Foundation

/// The partner backend, assembled: every app-facing, webhook, well-known and operations route on one `Router`,
/// over one ``Store``, talking to the three providers.
///
/// ```swift
/// let store = try await StoreURL(configuration.database).open()
/// let backend = BatonBackend(configuration: configuration, store: store, options: options)
/// let running = try backend.start()                  // HTTP server + background maintenance + catalog work
/// // … tests can also call backend.router directly (in-process) with `router.test(.inProcess) { … }`
/// await running.shutdown(grace: .seconds(10))
/// ```
/// Catalog routes are mounted from ``BackendOptions/catalog`` (see ``CatalogComponent``).
public final class BatonBackend: Sendable {
    /// The configuration it runs with.
    public let configuration: BackendConfiguration
    /// The store it keeps everything in.
    public let store: any Store
    /// Its counters (`GET /metrics`).
    public let metrics: BackendMetrics
    /// Every route, behind access logging, metrics and authentication.
    public let router: Router

    private let options: BackendOptions
    private let processor: WebhookEventProcessor

    /// Assembles the backend; nothing runs until ``start(host:port:)``.
    public init(configuration: BackendConfiguration, store: any Store, options: BackendOptions = BackendOptions()) {
        self.configuration = configuration
        self.store = store
        self.options = options
        let metrics = BackendMetrics()
        self.metrics = metrics
        let processor = WebhookEventProcessor(store: store, now: options.now)
        self.processor = processor
        self.router = BackendRoutes(
            configuration: configuration, store: store, options: options, metrics: metrics, processor: processor
        ).makeRouter()
    }

    /// One round of maintenance: erase sealed responses whose URL expired, delete idempotency records, connect
    /// sessions, processed webhook events, superseded verifications, idle rate-limit buckets and image bytes the
    /// stored catalog no longer shows past retention, and apply webhook events whose inline processing did not
    /// finish.
    public func runMaintenance() async throws {
        _ = try await store.purgeIdempotency(now: options.now(), retention: options.handoff.retention)
        var retention = options.retention
        // A bucket idle for its full refill time is full again: the same as no row.
        let refill = TimeInterval(configuration.rateLimit.burst) * 60 / TimeInterval(configuration.rateLimit.perMinute)
        retention.rateLimitBuckets = max(retention.rateLimitBuckets, refill)
        // Image bytes are purged only against a stored catalog (none yet: keep everything).
        let catalog = try await store.latestCatalogSnapshot().flatMap { try? CatalogSnapshotBody.decode($0.body) }
        _ = try await store.purgeRecords(
            now: options.now(), retention: retention, keepingAssets: catalog.map { Set($0.images.values.map(\.sha256)) }
        )
        try await processor.drain(owner: options.instanceID)
    }

    /// Starts the HTTP server (on the configured host and port unless given) and the background work.
    public func start(host: String? = nil, port: Int? = nil) throws(HTTPServerError) -> RunningBackend {
        var server = HTTPServerConfiguration()
        server.host = host ?? configuration.server.host
        server.port = UInt16(clamping: port ?? configuration.server.port)
        server.threadPoolSize = configuration.server.threads
        server.limits.maxConnectionsPerAddress = configuration.server.maxConnectionsPerAddress
        server.logger = options.logger
        let http = try HTTPServer.start(server, router: router)
        let interval = options.maintenanceInterval
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
        let catalog = options.catalog
        let catalogWork = Task { if let catalog { await catalog.run() } }
        return RunningBackend(server: http, background: [maintenance, catalogWork])
    }
}

/// A started backend: its server and background tasks.
public final class RunningBackend: Sendable {
    /// The HTTP server (its `HTTPServer.port` is the one picked when asked for port 0).
    public let server: HTTPServer
    private let background: [Task<Void, Never>]

    init(server: HTTPServer, background: [Task<Void, Never>]) {
        self.server = server
        self.background = background
    }

    /// Stops background work, drains in-flight requests for up to `grace`, and stops the server.
    public func shutdown(grace: Duration = .seconds(10)) async {
        for task in background { task.cancel() }
        await server.shutdown(grace: grace)
        for task in background { await task.value }
    }
}
