import BatonCore
import BatonHTTP
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// `BatonBackend.build(configuration:evidence:overrides:)` is the one assembly: it opens the configured store and
/// always mounts the Chia catalog pipeline, so a backend without a catalog cannot answer every share with a 409.
@Suite struct BackendBuildTests {
    @Test(arguments: BackendEngines.available)
    func theCatalogPipelineIsMountedWithoutBeingAsked(_ engine: StoreEngine) async throws {
        // Nothing replaces the catalog: the fixture's scripted projection is taken out again.
        let fixture = try await BackendFixture.make(engine) { $0.catalog = nil }
        #expect(fixture.backend.catalogPipeline != nil)
        try await fixture.run { api in
            // No publication loaded yet: retry later, never the definitive 409 an absent catalog used to give.
            let share = try await api.share(key: Share.key())
            #expect(share.status == 503)
            #expect(jsonObject(share)["code"] as? String == "catalog_unavailable")
            let catalog = try await api.send(.get, "/v2/catalog")
            #expect(catalog.status == 503)
            #expect(jsonObject(catalog)["code"] as? String == "catalog_unavailable")
            let ready = try await api.send(.get, "/readyz", user: nil)
            #expect(ready.status == 503)
            #expect(ready.bodyText == "not ready\n")
            let detailed = try await api.admin("/readyz")
            #expect(detailed.status == 503)
            #expect(detailed.bodyText == "not ready\nstore: ok\ncatalog: no publication loaded yet\n")
        }
    }

    @Test func opensTheConfiguredStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-build-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("built.sqlite").path
        var configuration = try TestConfiguration.make()
        configuration.database = "sqlite:\(path)"
        var overrides = BackendOverrides()
        overrides.logger = Logger(sink: DiscardLogSink())
        let backend = try await BatonBackend.build(
            configuration: configuration, evidence: NoEvidenceServiceStateProvider(), overrides: overrides)
        #expect(FileManager.default.fileExists(atPath: path))
        // Migrated: the readiness probe's read succeeds.
        #expect(try await backend.store.idempotencyRecord(user: "", key: "probe") == nil)
        await backend.store.close()
    }
}
