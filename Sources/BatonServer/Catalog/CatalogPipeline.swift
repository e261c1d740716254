import BatonCore
import BatonHTTP
import Foundation

/// The whole Chia catalog pipeline of one backend instance, assembled from its configuration: the scheduled
/// ``CatalogSync`` and the ``CatalogService`` the routes use, sharing one ``CatalogCache``.
///
/// ``BatonBackend/build(configuration:evidence:overrides:)`` always builds one and mounts it (its routes, sync and
/// metrics); ``BatonBackend/catalogPipeline`` reaches it, e.g. to sync once before serving:
///
/// ```swift
/// let backend = try await BatonBackend.build(configuration: configuration, evidence: myAccountSystem)
/// await backend.catalogPipeline?.sync.syncOnce()
/// ```
public struct CatalogPipeline: Sendable {
    /// The scheduled sync (start it once; stop it on shutdown).
    public let sync: CatalogSync
    /// The projection and the two route handlers.
    public let service: CatalogService

    /// Assembles the pipeline.
    ///
    /// - Parameters:
    ///   - transport: for the catalog request to `chia.apiOrigin`.
    ///   - imageTransport: for image downloads; by default a `CurlTransport` whose response limit is
    ///     `chia.maxImageBytes`, so an oversized image is cut off while downloading.
    ///   - evidence: the partner's account system.
    ///   - environment: clock, jitter and sleep of the sync (tests inject them).
    ///   - onEvent: sync progress, for `baton serve` output.
    /// - Throws: ``ConfigurationError`` when `chia.assetOrigin` is not an origin the backend may download from.
    public init(
        configuration: BackendConfiguration, store: any Store, transport: any HTTPTransport,
        imageTransport: (any HTTPTransport)? = nil, evidence: any ServiceStateProvider,
        environment: CatalogSync.Environment = CatalogSync.Environment(),
        onEvent: @escaping @Sendable (CatalogSyncEvent) -> Void = { _ in }
    ) throws(ConfigurationError) {
        let chia = configuration.chia
        guard let origin = AssetOrigin(chia.assetOrigin, allowsLoopbackHTTP: configuration.allowsLoopbackHTTP) else {
            throw ConfigurationError(
                field: "chia.assetOrigin", problem: "must be an https origin (or loopback http in development)")
        }
        let timeout = Duration.milliseconds(Int64(configuration.providerTimeout * 1000))
        var limits = CurlTransport.Configuration()
        limits.maxResponseBytes = chia.maxImageBytes
        let mirror = ImageMirror(
            origin: origin, apiKey: chia.apiKey, transport: imageTransport ?? CurlTransport(configuration: limits),
            store: store, maxImageBytes: chia.maxImageBytes, timeout: timeout)
        let cache = CatalogCache()
        var syncConfiguration = CatalogSync.Configuration(
            apiOrigin: chia.apiOrigin, apiKey: chia.apiKey, publicOrigin: configuration.server.publicOrigin,
            schedule: CatalogSyncSchedule(interval: chia.syncInterval), requestTimeout: timeout,
            allowsLoopbackHTTP: configuration.allowsLoopbackHTTP)
        syncConfiguration.linkHosts = chia.journeyHosts
        sync = CatalogSync(
            configuration: syncConfiguration,
            store: store, transport: transport, mirror: mirror, cache: cache, environment: environment,
            onEvent: onEvent)
        service = CatalogService(
            cache: cache, store: store, evidence: evidence, policy: chia.decisionPolicy, now: environment.now)
    }
}
