import BatonHTTP
import BatonHTTPTesting
import Foundation
import Testing

/// `OutboundRequest.connectTo` (what `baton doctor --live` uses): the connection goes to the given address while the
/// request keeps the URL's host. (The CA file is exercised against a real https server in `scripts/suites/doctor-live`.)
@Suite struct ConnectToTests {
    static func router() -> Router {
        var router = Router()
        router.get("/host") { request in .text(request.headers["host"] ?? "none") }
        return router
    }

    @Test func theConnectionGoesToTheGivenAddressAndTheHostStaysTheURLs() async throws {
        try await Self.router().test(.live) { client in
            let base = try #require(client.baseURL)
            let address = String(base.dropFirst("http://".count))
            var request = OutboundRequest(url: "http://landing.invalid:4711/host", timeout: .seconds(5))
            request.connectTo = address
            let response = try await CurlTransport().send(request)
            #expect(response.status == 200)
            #expect(response.bodyText == "landing.invalid:4711")
        }
    }

    @Test func urlSessionRefusesToConnectElsewhere() async throws {
        var request = OutboundRequest(url: "http://landing.invalid/host")
        request.connectTo = "127.0.0.1:9"
        await #expect(throws: TransportError.self) { try await URLSessionTransport().send(request) }
    }
}
