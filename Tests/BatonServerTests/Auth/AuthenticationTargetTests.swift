import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// The authentication middleware decides on the same path the router matches: a target without the leading `/`
/// (`x/v2/catalog`) no longer reaches `/v2/catalog` past a middleware that only guards the `/v2` group.
@Suite struct AuthenticationTargetTests {
    static func router() -> Router {
        let authenticator = SignedTokenAuthenticator(key: Secret(String(repeating: "k", count: 32)))
        var router = Router()
        router.group("/v2", middleware: [AuthenticationMiddleware(authenticator: authenticator)]) { v2 in
            v2.get("/catalog") { request in .text("catalog for \(try request.authenticatedUser().id)") }
        }
        router.get("/healthz") { _ in .text("ok") }
        return router
    }

    @Test(arguments: ["x/v2/catalog", "v2/catalog", "*", "http://partner.example/v2/catalog", ""])
    func aTargetThatIsNotOriginFormIsRefusedBeforeRoutingAndAuthentication(target: String) async throws {
        let request = HTTPRequest(method: .get, target: target)
        let error = await #expect(throws: HTTPError.self) { try await Self.router().respond(to: request) }
        #expect(error?.status == 400)
        #expect(error?.code == "invalid_target")
    }

    @Test func theOriginFormPathStillNeedsAToken() async throws {
        let error = await #expect(throws: HTTPError.self) {
            try await Self.router().respond(to: HTTPRequest(method: .get, target: "/v2/catalog"))
        }
        #expect(error?.status == 401)
        let health = try await Self.router().respond(to: HTTPRequest(method: .get, target: "/healthz"))
        #expect(health.status == 200)
    }
}
