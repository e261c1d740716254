import BatonCore
import BatonHTTP
import Foundation

/// The pipeline is what `BackendOverrides.catalog` takes: the service is the projection and serves the two routes,
/// the sync is the background work, and its status is the catalog part of `GET /metrics`.
extension CatalogPipeline: CatalogComponent {
    /// The projection the share route checks against: the same service that renders `GET /v2/catalog`.
    public var projection: any CatalogProjection { service }

    /// Mounts `GET /v2/catalog` in the backend's authenticated `/v2` group.
    public func registerRoutes(on api: inout RouterGroup) {
        api.get("/catalog", service.catalogResponse)
    }

    /// Mounts `GET /assets/{file}` (public).
    public func registerPublicRoutes(on router: inout Router) {
        router.get("/assets/{file}", service.assetResponse)
    }

    /// Runs the scheduled sync until the task is cancelled, then stops it (releasing the lease).
    public func run() async {
        await sync.start()
        // The sync loop runs in its own task; wait here until shutdown cancels this one (sleep throws at once then).
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        await sync.stop()
    }

    /// Whether a publication is loaded (from a sync, or from the store at start).
    public var hasPublication: Bool { service.cache.catalog != nil }

    /// The sync status as `baton_catalog_…` lines.
    public func metricsText(now: Date) -> String { sync.status.metricsText(now: now) }
}
