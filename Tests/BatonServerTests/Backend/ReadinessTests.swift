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
        func registerRoutes(on api: inout RouterGroup) {}
        func registerPublicRoutes(on router: inout Router) {}
        func run() async {}
        var hasPublication: Bool { loaded.value.withLock { $0 } }
    }

    @Test func notReadyUntilACatalogPublicationIsLoaded() async throws {
        let loaded = Loaded()
        let fixture = try await BackendFixture.make(.sqlite) { options in
            options.catalog = LoadingCatalog(loaded: loaded)
        }
        // The admin listener names the missing part; the public answer is bare, with the same status.
        func both() async throws -> (public: OutboundResponse, admin: OutboundResponse) {
            let open = try await fixture.backend.router.test(.inProcess) { try await $0.execute(.get, "/readyz") }
            let admin = try await fixture.backend.adminRouter.test(.inProcess) { try await $0.execute(.get, "/readyz") }
            return (open, admin)
        }
        let early = try await both()
        #expect(early.admin.status == 503)
        #expect(early.admin.bodyText == "not ready\nstore: ok\ncatalog: no publication loaded yet\n")
        #expect(early.public.status == 503)
        #expect(early.public.bodyText == "not ready\n")
        loaded.value.withLock { $0 = true }
        let ready = try await both()
        #expect(ready.admin.status == 200)
        #expect(ready.admin.bodyText == "ready\nstore: ok\ncatalog: publication loaded\n")
        #expect(ready.public.status == 200)
        #expect(ready.public.bodyText == "ready\n")
        await fixture.store.close()
        let closed = try await both()
        #expect(closed.admin.status == 503)
        #expect(closed.admin.bodyText.hasPrefix("not ready\nstore: unreachable"))
        #expect(closed.public.status == 503)
        #expect(closed.public.bodyText == "not ready\n")
        await fixture.close()
    }
}
