import Testing

@testable import BatonCore

/// A `WebOrigin` admits only `http(s)://host[:port]`, so a journey URL made from it always has its host: the sandbox's
/// providers used to build such URLs from any string and force-unwrap the result, which trapped on an origin they had
/// not been given yet (`""`).
@Suite struct WebOriginTests {
    @Test(arguments: ["http://127.0.0.1:9001", "https://sandbox.example", "HTTP://Example.com:8443", "http://[::1]:80"])
    func acceptsSchemeAndAuthority(_ text: String) throws {
        let origin = try #require(WebOrigin(text))
        #expect(origin.text == text)
        #expect("\(origin)" == text)
    }

    @Test(arguments: [
        "", "127.0.0.1:9001", "http://", "http:///h", "ftp://example.com", "intent://example.com",
        "http://user@example.com", "http://example.com/", "http://example.com/path", "http://example.com?q",
        "http://example.com#fragment",
    ])
    func refusesAnythingElse(_ text: String) {
        #expect(WebOrigin(text) == nil)
    }

    @Test func loopbackIsTheIPv4LoopbackOnThePort() {
        #expect(WebOrigin.loopback(port: 9001).text == "http://127.0.0.1:9001")
        #expect(WebOrigin.loopback(port: 9001) == WebOrigin("http://127.0.0.1:9001"))
    }

    @Test(arguments: [
        ("/h/tok", "http://127.0.0.1:9001/h/tok"), ("h/tok", "http://127.0.0.1:9001/h/tok"),
        ("/acme/kyc#ticket=abc", "http://127.0.0.1:9001/acme/kyc#ticket=abc"), ("", "http://127.0.0.1:9001/"),
        ("@evil.example/", "http://127.0.0.1:9001/@evil.example/"),
    ])
    func aJourneyURLOnAnOriginKeepsItsHost(path: String, expected: String) throws {
        let url = SensitiveURL(origin: .loopback(port: 9001), path: path)
        #expect(url.revealForPresentation() == expected)
        #expect(url.host == "127.0.0.1")
        #expect(SensitiveURL(expected, allowingSchemes: ["http"]) == url)
    }
}
