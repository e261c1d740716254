import BatonCore
import BatonHTTP
import Foundation
import Synchronization
import Testing

@testable import BatonServer

/// A refused token is a bare 401 for the client, and a `token_refused` log line with the reason and request id (never
/// the token) plus a `baton_auth_token_refusals_total{reason}` count for the operator.
@Suite struct AuthenticationMiddlewareTests {
    final class Lines: LogSink, Sendable {
        let lines = Mutex<[String]>([])
        func write(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static let key = Secret(String(repeating: "k", count: 32))
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func router(_ metrics: BackendMetrics, _ sink: Lines) -> Router {
        var router = Router()
        router.use(
            AuthenticationMiddleware(
                authenticator: SignedTokenAuthenticator(key: key, audience: "aud"), now: { now },
                logger: Logger(sink: sink), metrics: metrics))
        router.get("/v2/thing") { request in .text(try request.authenticatedUser().id) }
        return router
    }

    @Test(arguments: [
        ("expired", TokenRefusal.expired), ("other-audience", .wrongAudience), ("other-key", .unknownKey),
        ("garbage", .malformed), ("none", .missing),
    ])
    func eachRefusalIsLoggedAndCountedWithoutTheToken(kind: String, reason: TokenRefusal) async throws {
        let metrics = BackendMetrics()
        let sink = Lines()
        let signer = SignedTokenAuthenticator(key: Self.key, audience: "aud")
        let token: String? =
            switch kind {
            case "expired": signer.token(for: "u", expiresAt: Self.now, issuedAt: Self.now)
            case "other-audience":
                SignedTokenAuthenticator(key: Self.key, audience: "elsewhere").token(
                    for: "u", expiresAt: Self.now + 60, issuedAt: Self.now)
            case "other-key":
                SignedTokenAuthenticator(key: Secret(String(repeating: "z", count: 32)), audience: "aud").token(
                    for: "u", expiresAt: Self.now + 60, issuedAt: Self.now)
            case "garbage": "bt1.not-a-token"
            default: nil
            }
        var request = HTTPRequest(method: .get, path: "/v2/thing", id: "req-\(kind)")
        if let token { request.headers.set("authorization", "Bearer \(token)") }
        let router = Self.router(metrics, sink)
        let error = await #expect(throws: HTTPError.self) { try await router.respond(to: request) }
        #expect(error?.status == 401)
        // The client learns nothing about why.
        #expect(error.map { !String(decoding: $0.response().body, as: UTF8.self).contains(reason.rawValue) } == true)
        #expect(metrics.value("baton_auth_token_refusals_total", [reason.rawValue]) == 1)
        #expect(metrics.render().contains("baton_auth_token_refusals_total{reason=\"\(reason.rawValue)\"} 1"))
        let line = try #require(sink.all.first { $0.contains("\"token_refused\"") })
        #expect(line.contains("\"reason\":\"\(reason.rawValue)\""))
        #expect(line.contains("\"id\":\"\(request.id)\""))
        if let token { #expect(!sink.all.joined().contains(token)) }
    }

    @Test func anAcceptedTokenIsNotCounted() async throws {
        let metrics = BackendMetrics()
        let sink = Lines()
        let token = SignedTokenAuthenticator(key: Self.key, audience: "aud").token(
            for: "u", expiresAt: Self.now + 60, issuedAt: Self.now)
        var request = HTTPRequest(method: .get, path: "/v2/thing", id: "req-ok")
        request.headers.set("authorization", "Bearer \(token)")
        let response = try await Self.router(metrics, sink).respond(to: request)
        #expect(response.status == 200)
        #expect(
            TokenRefusal.allCases.allSatisfy { metrics.value("baton_auth_token_refusals_total", [$0.rawValue]) == 0 })
    }
}
