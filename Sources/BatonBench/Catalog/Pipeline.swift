import BatonCore
import BatonHTTP
import BatonSandbox
import BatonServer
import Foundation

/// One backend instance on a fresh SQLite file, built as every assembly is
/// (``BatonBackend/build(configuration:evidence:overrides:)``) against the sandbox, with the sandbox's fixture users
/// as evidence: the benchmarks time its catalog pipeline.
struct Pipeline {
    let sync: CatalogSync
    let service: CatalogService
    let store: any Store
    let directory: URL

    /// Thrown when the built backend has no catalog pipeline (it always has one: nothing replaces it here).
    struct NoPipeline: Error {}

    static func make(sandbox: ProviderSandbox, assetOrigin: String) async throws -> Pipeline {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-bench-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let configuration = try configuration(
            sandbox: sandbox, assetOrigin: assetOrigin, database: "sqlite:\(directory.path)/bench.sqlite")
        var overrides = BackendOverrides()
        overrides.logger = Logger(sink: DiscardLogSink())
        let backend = try await BatonBackend.build(
            configuration: configuration, evidence: FixtureServiceStateProvider.sandbox, overrides: overrides)
        guard let pipeline = backend.catalogPipeline else {
            await backend.store.close()
            throw NoPipeline()
        }
        return Pipeline(sync: pipeline.sync, service: pipeline.service, store: backend.store, directory: directory)
    }

    func close() async {
        await store.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A development configuration for the sandbox's Chia, images from `assetOrigin` up to 1 MiB; the Privue and BB
    /// parts are placeholders the catalog never calls.
    private static func configuration(
        sandbox: ProviderSandbox, assetOrigin: String, database: String
    ) throws -> BackendConfiguration {
        let key = Data(repeating: 7, count: 32).base64EncodedString()
        let environment = [
            "BATON_TOKEN_SIGNING_KEY": key, "BATON_SEALING_KEY": key,
            "BATON_CHIA_API_KEY": sandbox.configuration.chiaAPIKey.revealForUse(),
            "BATON_PRIVUE_API_KEY": "pv_bench_0123456789abcdef", "BATON_PRIVUE_WEBHOOK_SECRET": "whsec_" + key,
            "BATON_BB_API_KEY": "bb_bench_0123456789abcdef", "BATON_BB_CLIENT_ID": "cli_bench",
            "BATON_BB_WEBHOOK_SECRET": "whsec_" + key,
        ]
        var configuration = try BackendConfiguration.sandbox(
            SandboxBackendSettings(
                port: 8080, publicOrigin: "https://partner.example", database: database, chiaOrigin: sandbox.chiaOrigin,
                chiaAssetOrigin: assetOrigin, privueOrigin: sandbox.privueOrigin, bbOrigin: sandbox.bbOrigin,
                bbCustomSchemeReturnURL: nil, appleAppIDs: []),
            environment: environment)
        configuration.chia.maxImageBytes = 1 << 20
        return configuration
    }
}
