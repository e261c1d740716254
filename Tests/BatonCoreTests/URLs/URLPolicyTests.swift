import Foundation
import Testing

@testable import BatonCore

@Suite struct URLPolicyTests {
    static let loopback = [
        "http://127.0.0.1:9001/h/phs_1", "http://localhost:8080/x", "http://[::1]:9/x", "http://127.9.8.7/",
    ]
    static let notLoopback = [
        "http://10.0.0.1/x", "http://127.0.0.1.example.com/x", "http://128.0.0.1/x", "http://localhost.evil/x",
        "http://127.0.0.256/x", "http://[::2]/x", "http://127.0.0.\u{661}/x", "http://127.0.0.1\u{661}/x",
        "http://127.\u{FF10}.0.1/x", "http://127.0.0/x", "http://127.0.0.1./x", "http://127..0.1/x",
        "http://0127.0.0.1/x", "http://127.0.0.0001/x",
    ]

    @Test(
        arguments: [
            ("127.0.0.1", true), ("127.255.255.255", true), ("127.0.0.01", true), ("localhost", true),
            ("[::1]", true), ("126.0.0.1", false), ("127.0.0", false), ("127.0.0.1.2", false), ("", false),
            (".127.0.0.1", false), ("127.0.0.256", false), ("127.0.0.1000", false), ("127.0.0.-1", false),
            // Other scripts' digits are Character.isNumber but not Int-readable: they once crashed this check.
            ("127.0.0.\u{661}", false), ("127.\u{FF10}.0.1", false), ("\u{661}27.0.0.1", false),
        ])
    func loopbackHosts(host: String, loopback: Bool) {
        #expect(URLPolicy.isLoopback(host: host) == loopback)
    }

    @Test(arguments: loopback + notLoopback)
    func plainHTTPIsRefusedByDefault(url: String) {
        #expect(HTTPSURL(url) == nil)
        #expect(SensitiveURL(url) == nil)
    }

    @Test(arguments: loopback)
    func loopbackHTTPPassesOnlyInsideTheScope(url: String) {
        URLPolicy.$allowsLoopbackHTTP.withValue(true) {
            #expect(HTTPSURL(url)?.string == url)
            #expect(SensitiveURL(url)?.revealForPresentation() == url)
        }
        #expect(HTTPSURL(url) == nil)
    }

    @Test(arguments: notLoopback)
    func otherPlainHTTPStaysRefusedInsideTheScope(url: String) {
        URLPolicy.$allowsLoopbackHTTP.withValue(true) {
            #expect(HTTPSURL(url) == nil)
            #expect(SensitiveURL(url) == nil)
        }
    }

    @Test func decodingAHandoffFollowsTheScope() throws {
        let json = Data(
            #"{"mode":"neutral_only","heading":"h","body":"b","actionLabel":"Continue to Chia","url":"http://127.0.0.1:9001/c/x"}"#
                .utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MobileHandoff.self, from: json) }
        let decoded = try URLPolicy.$allowsLoopbackHTTP.withValue(true) {
            try JSONDecoder().decode(MobileHandoff.self, from: json)
        }
        #expect(decoded.mode == .neutralOnly)
    }
}
