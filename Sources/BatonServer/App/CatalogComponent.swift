import BatonCore
import BatonHTTP
import Foundation

/// The Chia catalog part as the backend mounts it: the projection the share route checks, the routes it serves
/// (`GET /v2/catalog`, `GET /assets/…`) and its background work (sync, mirroring).
///
/// ``CatalogPipeline`` is the one ``BatonBackend/build(configuration:evidence:overrides:)`` always mounts; tests
/// replace it through ``BackendOverrides/catalog`` to script what is offered.
public protocol CatalogComponent: Sendable {
    /// What `POST /v2/handoff-sessions` checks a share against (`409 projection_changed` when not offered).
    var projection: any CatalogProjection { get }

    /// Adds the component's routes for signed-in users to the backend's `/v2` group (paths relative to `/v2`),
    /// behind its authentication middleware, so handlers can call `request.authenticatedUser()`.
    func registerRoutes(on api: inout RouterGroup)

    /// Adds the component's public routes, which need no user.
    func registerPublicRoutes(on router: inout Router)

    /// Background work, run from ``BatonBackend/start(host:port:)`` until the task is cancelled at shutdown.
    func run() async

    /// Prometheus text-format lines appended to `GET /metrics` (empty by default).
    func metricsText(now: Date) -> String

    /// Whether this instance has a catalog publication loaded; until then `/readyz` answers 503 and the catalog
    /// routes `503 catalog_unavailable` (true by default, for a component with nothing to load).
    var hasPublication: Bool { get }
}

extension CatalogComponent {
    /// No metrics of its own.
    public func metricsText(now: Date) -> String { "" }

    /// Nothing to load.
    public var hasPublication: Bool { true }
}
