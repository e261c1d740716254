import BatonHTTP
import BatonHTTPTesting
import Foundation
import Testing

struct SampleError: Error, CustomStringConvertible {
    var description: String { "database password hunter2 at /srv/secret" }
}

func sampleRouter() -> Router {
    var router = Router()
    router.get("/healthz") { _ in .text("ok") }
    router.get("/v2/connect-sessions/{sessionId}") { request in
        .text("session \(request.parameters["sessionId"] ?? "?") route \(request.route ?? "?")")
    }
    router.get("/v2/connect-sessions/current") { _ in .text("literal wins") }
    router.post("/v2/connect-sessions") { request in
        HTTPResponse(status: 201, headers: ["content-type": "application/json"], body: request.body)
    }
    router.get("/echo") { request in
        .text("query=\(request.query ?? "") header=\(request.headers["X-Probe"] ?? "")")
    }
    router.get("/teapot") { _ in
        throw HTTPError(status: 409, code: "projection_changed", detail: "The item changed.")
    }
    router.get("/boom") { _ in throw SampleError() }
    return router
}

@Suite("Router, in-process and live")
struct RouterTests {
    @Test(arguments: HTTPTestMode.allCases)
    func routesByMethodAndPattern(mode: HTTPTestMode) async throws {
        try await sampleRouter().test(mode) { client in
            let health = try await client.execute(.get, "/healthz")
            #expect(health.status == 200)
            #expect(health.bodyText == "ok")
            #expect(health.headers["x-request-id"]?.isEmpty == false)

            let session = try await client.execute(.get, "/v2/connect-sessions/cs_%41bc")
            #expect(session.bodyText == "session cs_Abc route /v2/connect-sessions/{sessionId}")

            let literal = try await client.execute(.get, "/v2/connect-sessions/current")
            #expect(literal.bodyText == "literal wins")

            let created = try await client.execute(.post, "/v2/connect-sessions", body: Array(#"{"a":1}"#.utf8))
            #expect(created.status == 201)
            #expect(created.bodyText == #"{"a":1}"#)

            let echo = try await client.execute(.get, "/echo?x=1&y=%20", headers: ["x-probe": "yes"])
            #expect(echo.bodyText == "query=x=1&y=%20 header=yes")

            let head = try await client.execute(.head, "/healthz")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
        }
    }

    @Test(arguments: HTTPTestMode.allCases)
    func unknownPathIs404AndWrongMethodIs405WithAllow(mode: HTTPTestMode) async throws {
        try await sampleRouter().test(mode) { client in
            let missing = try await client.execute(.get, "/nope")
            #expect(missing.status == 404)
            #expect(missing.headers["content-type"] == "application/problem+json")
            let problem = try JSONSerialization.jsonObject(with: Data(missing.body)) as? [String: Any]
            #expect(problem?["code"] as? String == "not_found")
            #expect(problem?["status"] as? Int == 404)

            let wrong = try await client.execute(.delete, "/v2/connect-sessions")
            #expect(wrong.status == 405)
            #expect(wrong.headers["allow"] == "POST")

            let wrongOnParam = try await client.execute(.post, "/healthz")
            #expect(wrongOnParam.status == 405)
            #expect(wrongOnParam.headers["allow"] == "GET, HEAD")
        }
    }

    @Test(arguments: HTTPTestMode.allCases)
    func httpErrorRendersAsProblemJSON(mode: HTTPTestMode) async throws {
        try await sampleRouter().test(mode) { client in
            let response = try await client.execute(.get, "/teapot")
            #expect(response.status == 409)
            #expect(response.headers["content-type"] == "application/problem+json")
            let problem = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            #expect(problem["type"] as? String == "about:blank")
            #expect(problem["title"] as? String == "Conflict")
            #expect(problem["status"] as? Int == 409)
            #expect(problem["code"] as? String == "projection_changed")
            #expect(problem["detail"] as? String == "The item changed.")
        }
    }

    @Test(arguments: HTTPTestMode.allCases)
    func unexpectedErrorIs500WithRequestIDAndNoInternals(mode: HTTPTestMode) async throws {
        let sink = InMemoryLogSink()
        try await sampleRouter().test(mode, configuration: testConfiguration(sink: sink)) { client in
            let response = try await client.execute(.get, "/boom")
            #expect(response.status == 500)
            #expect(!response.bodyText.contains("hunter2"))
            #expect(!response.bodyText.contains("SampleError"))
            let problem = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            #expect(problem["code"] as? String == "internal_error")
            let id = try #require(response.headers["x-request-id"])
            #expect(problem["requestId"] as? String == id)
        }
        let logged = sink.captured.joined(separator: "\n")
        #expect(logged.contains("SampleError"))
        #expect(!logged.contains("hunter2"))
    }

    /// What an API document is checked against: every route as `METHOD /pattern`, captures as `{name}`, in order.
    @Test func describesEveryRouteAsMethodAndPattern() {
        #expect(
            sampleRouter().routeDescriptions == [
                "GET /healthz", "GET /v2/connect-sessions/{sessionId}", "GET /v2/connect-sessions/current",
                "POST /v2/connect-sessions", "GET /echo", "GET /teapot", "GET /boom",
            ])
    }

    @Test func middlewareRunsOutermostFirstAndCanAnswer() async throws {
        struct Principal: RequestAttributeKey { typealias Value = String }
        var router = Router()
        router.use(
            ClosureMiddleware { request, next in
                var response = try await next(request)
                response.headers.add("x-order", "outer")
                return response
            })
        router.use(
            ClosureMiddleware { request, next in
                guard request.headers["authorization"] == "Bearer good" else { throw HTTPError.unauthorized() }
                var request = request
                request.attributes[Principal.self] = "user-1"
                return try await next(request)
            })
        router.get("/me") { request in .text(request.attributes[Principal.self] ?? "nobody") }
        try await router.test(.inProcess) { client in
            let denied = try await client.execute(.get, "/me")
            #expect(denied.status == 401)
            let allowed = try await client.execute(.get, "/me", headers: ["Authorization": "Bearer good"])
            #expect(allowed.bodyText == "user-1")
            #expect(allowed.headers["x-order"] == "outer")
        }
    }

    /// The chain is composed when a route or a middleware is added: a middleware added after the routes still wraps
    /// every one of them (exact and parameterised), and the 404/405 answers too, in the order added.
    @Test func middlewareAddedAfterTheRoutesWrapsThemAll() async throws {
        var router = Router()
        router.use(
            ClosureMiddleware { request, next in
                var response = try await next(request)
                response.headers.add("x-order", "first")
                return response
            })
        router.get("/exact") { _ in .text("exact") }
        router.get("/items/{id}") { request in .text(request.parameters["id"] ?? "") }
        router.use(
            ClosureMiddleware { request, next in
                do {
                    var response = try await next(request)
                    response.headers.add("x-order", "second")
                    return response
                } catch let error as HTTPError {
                    var response = error.response()
                    response.headers.add("x-order", "second")
                    return response
                }
            })
        try await router.test(.inProcess) { client in
            for (path, status) in [("/exact", 200), ("/items/7", 200), ("/missing", 404)] {
                let response = try await client.execute(.get, path)
                #expect(response.status == status)
                #expect(response.headers.values(for: "x-order") == ["second", "first"], "\(path)")
            }
            let refused = try await client.execute(.post, "/exact")
            #expect(refused.status == 405)
            #expect(refused.headers.values(for: "x-order") == ["second", "first"])
        }
    }
}
