import BatonHTTP
import BatonHTTPTesting
import Testing

/// Middleware scoped by route: a group's middleware runs for its routes only, inside the router's and the outer
/// groups', for the 404 and 405 answers under its path too; what a route declares reaches its middleware.
@Suite struct RouterGroupTests {
    /// Records its name on the response (`x-trail`, innermost first), for the answers that are errors too.
    struct Trail: HTTPMiddleware {
        let name: String

        nonisolated(nonsending) func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse {
            var response: HTTPResponse
            do { response = try await next(request) } catch let error as HTTPError { response = error.response() }
            response.headers.add("x-trail", name)
            return response
        }
    }

    enum Tier: RequestAttributeKey { typealias Value = String }
    enum Audited: RequestAttributeKey { typealias Value = Bool }

    /// Reports what the route declares, as the middleware around it sees it.
    struct Declared: HTTPMiddleware {
        nonisolated(nonsending) func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse {
            var response = try await next(request)
            response.headers.add("x-tier", request.attributes[Tier.self] ?? "none")
            response.headers.add("x-audited", request.attributes[Audited.self] == true ? "yes" : "no")
            return response
        }
    }

    static func router() -> Router {
        var router = Router()
        router.use(Trail(name: "router"))
        router.get("/healthz") { _ in .text("ok") }
        router.group("/v2", middleware: [Trail(name: "v2")]) { v2 in
            v2.get("/catalog") { _ in .text("catalog") }
            v2.group(
                "/sessions", middleware: [Trail(name: "sessions"), Declared()],
                attributes: RequestAttributes().with(Audited.self, true)
            ) { sessions in
                sessions.post("", attributes: RequestAttributes().with(Tier.self, "create")) { _ in .text("created") }
                sessions.get("/{id}") { request in .text(request.parameters["id"] ?? "") }
            }
        }
        router.group("/webhooks") { hooks in hooks.post("/bb") { _ in .text("hook") } }
        return router
    }

    @Test(arguments: [
        ("GET", "/healthz", 200, ["router"]),
        ("GET", "/v2/catalog", 200, ["v2", "router"]),
        ("POST", "/v2/sessions", 200, ["sessions", "v2", "router"]),
        ("GET", "/v2/sessions/s1", 200, ["sessions", "v2", "router"]),
        ("POST", "/webhooks/bb", 200, ["router"]),
        // Unmatched: through the deepest group whose path holds the request's path.
        ("GET", "/v2", 404, ["v2", "router"]),
        ("GET", "/v2/nowhere", 404, ["v2", "router"]),
        ("DELETE", "/v2/catalog", 405, ["v2", "router"]),
        ("PUT", "/v2/sessions", 405, ["sessions", "v2", "router"]),
        ("GET", "/v2/sessions/s1/more", 404, ["sessions", "v2", "router"]),
        ("GET", "/v2sessions", 404, ["router"]),
        ("GET", "/webhooks/other", 404, ["router"]),
    ])
    func eachRouteRunsThroughItsGroupsMiddleware(
        method: String, path: String, status: Int, trail: [String]
    ) async throws {
        try await Self.router().test(.inProcess) { client in
            let response = try await client.execute(HTTPMethod(method), path)
            #expect(response.status == status)
            #expect(response.headers.values(for: "x-trail") == trail)
        }
        let match = Self.router().match(HTTPMethod(method), path)
        #expect(match.middleware.compactMap { ($0 as? Trail)?.name }.reversed() == trail)
        #expect((match.route == nil) == (status != 200))
    }

    @Test func aRouteDeclaresWhatItsGroupDeclaresAndItsOwn() async throws {
        try await Self.router().test(.inProcess) { client in
            let created = try await client.execute(.post, "/v2/sessions")
            #expect(created.headers["x-tier"] == "create")
            #expect(created.headers["x-audited"] == "yes")
            let read = try await client.execute(.get, "/v2/sessions/s1")
            #expect(read.headers["x-tier"] == "none")
            #expect(read.headers["x-audited"] == "yes")
        }
        let match = Self.router().match(.post, "/v2/sessions")
        #expect(match.attributes[Tier.self] == "create")
        #expect(Self.router().match(.put, "/v2/sessions").attributes[Audited.self] == nil)
    }

    /// A route's own declaration wins over its group's for the same key.
    @Test func aRoutesDeclarationWinsOverItsGroups() {
        var router = Router()
        router.group("/a", attributes: RequestAttributes().with(Tier.self, "group")) { a in
            a.get("/b", attributes: RequestAttributes().with(Tier.self, "route")) { _ in .text("") }
            a.get("/c") { _ in .text("") }
        }
        #expect(router.match(.get, "/a/b").attributes[Tier.self] == "route")
        #expect(router.match(.get, "/a/c").attributes[Tier.self] == "group")
    }
}
