import BatonHTTP
import BatonServer
import Foundation

/// The Chia catalog pipeline mounted by `baton serve`: `GET /v2/catalog`, `GET /assets/{file}`, the projection the
/// share route checks, and the scheduled sync (one instance holds its lease; the others serve what it stored).
///
/// A stopgap so that a served backend offers shareable items (the reliability suites need them); the `demo`
/// branch's wiring supersedes it.
struct ServeCatalog: CatalogComponent {
    let pipeline: CatalogPipeline

    init(configuration: BackendConfiguration, store: any Store, console: Console) throws(ConfigurationError) {
        pipeline = try CatalogPipeline(
            configuration: configuration, store: store, transport: CurlTransport(),
            evidence: FixtureServiceStateProvider.sandbox,
            onEvent: { event in
                if case .mirroring = event { return }
                console.print("baton serve: \(event)")
            })
    }

    var projection: any CatalogProjection { pipeline.service }

    func registerRoutes(on router: inout Router) {
        router.get("/v2/catalog", pipeline.service.catalogResponse)
        router.get("/assets/{file}", pipeline.service.assetResponse)
    }

    func run() async {
        await pipeline.sync.start()
        // Runs until the backend cancels its background work, then gives the sync lease up.
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        await pipeline.sync.stop()
    }
}
