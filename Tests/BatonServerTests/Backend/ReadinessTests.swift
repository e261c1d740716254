import BatonHTTP
import BatonHTTPTesting
import Foundation
import Synchronization
import Testing

@testable import BatonServer

/// `/readyz` is not ready until the catalog pipeline has loaded a publication, and says which part is missing.
@Suite struct ReadinessTests {
    final class Loaded: Sendable {
        let value = Mutex(false)
    }

    struct LoadingCatalog: CatalogComponent {
        let loaded: Loaded
        var projection: any CatalogProjection { TestCatalogProjection() }
        func registerRoutes(on router: inout Router) {}
        func run() async {}
        var hasPublication: Bool { loaded.value.withLock { $0 } }
    }

    @Test func notReadyUntilACatalogPublicationIsLoaded() async throws {
        let loaded = Loaded()
        let fixture = try await BackendFixture.make(.sqlite) { options in
            options.catalog = LoadingCatalog(loaded: loaded)
        }
        try await fixture.backend.router.test(.inProcess) { client in
            let early = try await client.execute(.get, "/readyz")
            #expect(early.status == 503)
            #expect(early.bodyText == "not ready\nstore: ok\ncatalog: no publication loaded yet\n")
            #expect(try await client.execute(.get, "/healthz").status == 200)
            loaded.value.withLock { $0 = true }
            let ready = try await client.execute(.get, "/readyz")
            #expect(ready.status == 200)
            #expect(ready.bodyText == "ready\nstore: ok\ncatalog: publication loaded\n")
            await fixture.store.close()
            let closed = try await client.execute(.get, "/readyz")
            #expect(closed.status == 503)
            #expect(closed.bodyText.hasPrefix("not ready\nstore: unreachable"))
        }
        await fixture.close()
    }
}
