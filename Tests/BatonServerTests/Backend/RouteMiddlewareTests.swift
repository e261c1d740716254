import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// Which middleware runs for which route of the backend, in which order, and what each route declares for it: the
/// `/v2` group authenticates, the provider-backed groups in it rate-limit, the create routes draw on the create
/// bucket, the share takes its own token with its claim, and a store-backed route's success ends a store outage.
/// A route moved out of its group (or a middleware out of its place) changes a row here.
@Suite struct RouteMiddlewareTests {
    /// How one route is guarded: its middleware, outermost first, and what it declares.
    struct Guard: Equatable, CustomStringConvertible {
        var middleware: [String]
        var rateLimit = "-"
        var storeBacked = false

        var description: String { "\(middleware.joined(separator: " → ")) rateLimit=\(rateLimit) store=\(storeBacked)" }
    }

    static let everyRoute = ["AccessLogMiddleware", "MetricsMiddleware", "StoreFailureMiddleware"]
    static let signedIn = everyRoute + ["AuthenticationMiddleware"]
    static let providerBacked = signedIn + ["RateLimitMiddleware"]

    static let table: [String: Guard] = [
        "POST /v2/handoff-sessions": Guard(
            middleware: providerBacked, rateLimit: "create, taken by the route", storeBacked: true),
        "POST /v2/verification-handoffs": Guard(middleware: providerBacked, rateLimit: "create", storeBacked: true),
        "GET /v2/verifications/{workflow}": Guard(middleware: providerBacked, storeBacked: true),
        "POST /v2/connect-sessions": Guard(middleware: providerBacked, rateLimit: "create", storeBacked: true),
        "GET /v2/connect-sessions/{sessionId}": Guard(middleware: providerBacked, storeBacked: true),
        "GET /v2/catalog": Guard(middleware: signedIn),
        "GET /assets/{file}": Guard(middleware: everyRoute),
        "POST /webhooks/privue": Guard(middleware: everyRoute, storeBacked: true),
        "POST /webhooks/bb": Guard(middleware: everyRoute, storeBacked: true),
        "GET /.well-known/apple-app-site-association": Guard(middleware: everyRoute),
        "GET /.well-known/assetlinks.json": Guard(middleware: everyRoute),
        "GET /healthz": Guard(middleware: everyRoute),
        "GET /readyz": Guard(middleware: everyRoute, storeBacked: true),
        "GET /openapi.json": Guard(middleware: everyRoute),
    ]

    /// The catalog's two routes, one in the `/v2` group and one public, as the real pipeline mounts them.
    struct RoutedCatalog: CatalogComponent {
        let projection: any CatalogProjection
        func registerRoutes(on api: inout RouterGroup) { api.get("/catalog") { _ in .text("cards") } }
        func registerPublicRoutes(on router: inout Router) { router.get("/assets/{file}") { _ in .text("image") } }
        func run() async {}
    }

    static func guarding(_ match: RouteMatch) -> Guard {
        let rateLimit = match.attributes[RouteRateLimitKey.self].map { declared in
            let bucket = declared.bucket == .create ? "create" : "per user"
            return declared.takenByRoute ? bucket + ", taken by the route" : bucket
        }
        return Guard(
            middleware: match.middleware.map { String(describing: type(of: $0)) }, rateLimit: rateLimit ?? "-",
            storeBacked: match.attributes[StoreBackedRouteKey.self] == true)
    }

    @Test func everyRouteRunsThroughItsGroupsMiddlewareInOrder() async throws {
        let fixture = try await BackendFixture.make(.sqlite) { options in
            options.catalog = RoutedCatalog(projection: TestCatalogProjection())
        }
        let router = fixture.backend.router
        let landing = fixture.configuration.landingPaths
        await fixture.close()
        #expect(!landing.isEmpty)
        let routes = router.routeDescriptions.filter { route in !landing.contains { route == "GET " + $0 } }
        #expect(Set(routes) == Set(Self.table.keys))
        for route in routes {
            let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
            let method = HTTPMethod(parts[0])
            // A concrete path for the pattern: each `{name}` as `x`.
            let match = router.match(method, parts[1].replacing(/\{[^}]+\}/, with: "x"))
            #expect(match.route == parts[1])
            #expect(Self.guarding(match) == Self.table[route], "\(route)")
        }
        for path in landing {
            #expect(Self.guarding(router.match(.get, path)) == Guard(middleware: Self.everyRoute), "\(path)")
        }
    }

    /// A request no route answers runs through the middleware of the deepest group its path is under: a stranger
    /// gets 401 for any path under `/v2` (not which routes exist), a signed-in user's 404 or 405 under a
    /// provider-backed resource still draws on the per-user bucket, and nothing is declared for it.
    @Test(arguments: [
        ("GET", "/v2/nowhere", signedIn), ("GET", "/v2", signedIn), ("DELETE", "/v2/catalog", signedIn),
        ("PUT", "/v2/connect-sessions", providerBacked), ("GET", "/v2/connect-sessions/a/b", providerBacked),
        ("POST", "/v2/handoff-sessions/x", providerBacked), ("GET", "/v2/verifications", providerBacked),
        ("GET", "/v2x", everyRoute), ("GET", "/nowhere", everyRoute), ("GET", "/webhooks/bb", everyRoute),
    ])
    func anUnmatchedRequestRunsThroughTheDeepestGroupItIsUnder(
        method: String, path: String, middleware: [String]
    ) async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        let router = fixture.backend.router
        await fixture.close()
        let match = router.match(HTTPMethod(method), path)
        #expect(match.route == nil)
        #expect(Self.guarding(match) == Guard(middleware: middleware))
    }
}
