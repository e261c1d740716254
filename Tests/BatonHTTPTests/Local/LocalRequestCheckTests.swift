import Testing

@testable import BatonHTTP

/// The check in front of the development-only routes: loopback peer, no proxy fields, loopback `Host`, own `Origin`.
@Suite struct LocalRequestCheckTests {
    @Test(arguments: [
        ("127.0.0.1", true), ("127.8.9.10", true), ("::1", true), ("::ffff:127.0.0.1", true),
        ("::FFFF:127.0.0.1", true),
        ("10.0.0.7", false), ("128.0.0.1", false), ("::2", false), ("::ffff:10.0.0.1", false), ("localhost", false),
        ("[::1]", false), ("127.attacker.example", false), ("", false),
    ])
    func loopbackPeerAddresses(address: String, loopback: Bool) {
        #expect(LoopbackAddress.isLoopback(address) == loopback)
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.0.0.1:8080", true), ("localhost:8081", true), ("[::1]", true), ("[::1]:8083", true),
        ("127.attacker.example", false), ("127.0.0.1.nip.io:8080", false), ("attacker.example:8080", false),
        ("127.0.0.1:", false), ("127.0.0.1:80a", false), ("127.0.0.1:123456", false), ("[::1", false),
        ("[::2]:80", false), ("", false), ("localhost.:8080", false),
    ])
    func loopbackHostFields(host: String, loopback: Bool) {
        #expect(LocalRequestCheck.isLoopbackAuthority(host) == loopback)
    }

    static func request(peer: String? = "127.0.0.1", _ fields: [(String, String)]) -> HTTPRequest {
        var request = HTTPRequest(method: .post, target: "/_sandbox/reset", headers: HTTPHeaders(fields))
        request.remoteAddress = peer
        return request
    }

    @Test func aLocalRequestPasses() {
        #expect(LocalRequestCheck.reason(for: Self.request([("Host", "127.0.0.1:8081")])) == nil)
        #expect(
            LocalRequestCheck.reason(
                for: Self.request([("Host", "127.0.0.1:8081"), ("Origin", "http://127.0.0.1:8081")]))
                == nil)
    }

    @Test func eachReasonIsNamed() {
        #expect(LocalRequestCheck.reason(for: Self.request(peer: nil, [("Host", "127.0.0.1")])) == .remotePeer)
        #expect(LocalRequestCheck.reason(for: Self.request(peer: "192.0.2.1", [("Host", "127.0.0.1")])) == .remotePeer)
        #expect(
            LocalRequestCheck.reason(for: Self.request([("Host", "127.0.0.1"), ("X-Real-IP", "192.0.2.1")]))
                == .forwarded)
        #expect(
            LocalRequestCheck.reason(for: Self.request([("Host", "127.0.0.1"), ("x-forwarded-host", "a.example")]))
                == .forwarded)
        // A relaying proxy that only says so in Via (RFC 9110 §7.6.3) is a relay too.
        #expect(
            LocalRequestCheck.reason(for: Self.request([("Host", "127.0.0.1:8080"), ("Via", "1.1 proxy")]))
                == .forwarded)
        #expect(
            LocalRequestCheck.reason(for: Self.request([("Host", "rebound.attacker.example:8081")])) == .foreignHost)
        #expect(
            LocalRequestCheck.reason(for: Self.request([("Host", "127.0.0.1"), ("Host", "a.example")])) == .foreignHost)
        #expect(
            LocalRequestCheck.reason(
                for: Self.request([("Host", "127.0.0.1:8081"), ("Origin", "https://127.0.0.1:8081")]))
                == .crossOrigin)
        let refusal = LocalRequestCheck.refusal(for: Self.request([("Host", "a.example")]))
        #expect(refusal?.status == 403)
        #expect(refusal?.code == "not_local")
    }
}
