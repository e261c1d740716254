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
    func plainHTTPIsRefusedInProductionTheDefault(url: String) {
        #expect(HTTPSURL(url) == nil)
        #expect(SensitiveURL(url) == nil)
        #expect(HTTPSURL(url, policy: .production) == nil)
        #expect(URLPolicy.production.journeyURL(url) == nil)
    }

    @Test(arguments: loopback)
    func loopbackHTTPPassesOnlyInDevelopment(url: String) {
        #expect(HTTPSURL(url, policy: .development)?.string == url)
        #expect(SensitiveURL(url, policy: .development)?.revealForPresentation() == url)
        #expect(URLPolicy.development.journeyURL(url)?.revealForPresentation() == url)
    }

    @Test(arguments: notLoopback)
    func otherPlainHTTPStaysRefusedInDevelopment(url: String) {
        #expect(HTTPSURL(url, policy: .development) == nil)
        #expect(SensitiveURL(url, policy: .development) == nil)
    }

    static let loopbackHandoff = Data(
        #"{"mode":"neutral_only","heading":"h","body":"b","actionLabel":"Continue to Chia","url":"http://127.0.0.1:9001/c/x"}"#
            .utf8)

    @Test func decodingFollowsThePolicyTheDecoderCarries() throws {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MobileHandoff.self, from: Self.loopbackHandoff) }
        let development = JSONDecoder()
        development.userInfo.merge(URLPolicy.development.decoderUserInfo) { $1 }
        #expect(try development.decode(MobileHandoff.self, from: Self.loopbackHandoff).mode == .neutralOnly)
        let production = JSONDecoder()
        production.userInfo.merge(URLPolicy.production.decoderUserInfo) { $1 }
        #expect(throws: DecodingError.self) { try production.decode(MobileHandoff.self, from: Self.loopbackHandoff) }
    }

    /// The reason the policy is a value: a detached task or a C callback inherits no task-local, so a scoped
    /// allowance silently vanished there. A value goes wherever it is passed.
    @Test func thePolicyReachesADetachedTask() async throws {
        let decoder = JSONDecoder()
        decoder.userInfo.merge(URLPolicy.development.decoderUserInfo) { $1 }
        let policy = URLPolicy.development
        let (decoded, url) = try await Task.detached {
            (
                try decoder.decode(MobileHandoff.self, from: Self.loopbackHandoff).mode,
                HTTPSURL("http://127.0.0.1:9001/c/x", policy: policy)
            )
        }.value
        #expect(decoded == .neutralOnly)
        #expect(url != nil)
    }

    @Test func theTwoPoliciesAreNamedValues() {
        #expect(URLPolicy(allowsLoopbackHTTP: true) == .development)
        #expect(URLPolicy(allowsLoopbackHTTP: false) == .production)
        #expect("\(URLPolicy.development) \(URLPolicy.production)" == "development production")
    }
}
