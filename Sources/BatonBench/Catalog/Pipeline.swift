import BatonCore
import BatonHTTP
import BatonSandbox
import BatonServer
import Foundation

/// One backend instance's catalog pipeline on a fresh SQLite file, wired to the sandbox as in development.
struct Pipeline {
    let sync: CatalogSync
    let service: CatalogService
    let store: any Store
    let directory: URL

    static func make(sandbox: ProviderSandbox, assetOrigin: String) async throws -> Pipeline {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-bench-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try await SQLiteStore.open(path: directory.appendingPathComponent("bench.sqlite").path)
        let key = sandbox.configuration.chiaAPIKey
        guard let origin = AssetOrigin(assetOrigin, allowsLoopbackHTTP: true) else {
            throw CatalogSyncFailure(code: "bad_asset_origin")
        }
        let transport = CurlTransport()
        let cache = CatalogCache()
        let mirror = ImageMirror(
            origin: origin, apiKey: key, transport: transport, store: store, maxImageBytes: 1 << 20)
        let sync = CatalogSync(
            configuration: CatalogSync.Configuration(
                apiOrigin: sandbox.chiaOrigin, apiKey: key, publicOrigin: "https://partner.example",
                schedule: CatalogSyncSchedule(interval: 300)),
            store: store, transport: transport, mirror: mirror, cache: cache)
        let service = CatalogService(
            cache: cache, store: store, evidence: FixtureServiceStateProvider.sandbox, policy: CatalogDecisionPolicy())
        return Pipeline(sync: sync, service: service, store: store, directory: directory)
    }

    func close() async {
        await store.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
