import Testing

@testable import BatonCore

@Suite struct FormURLEncodedQueryTests {
    @Test(arguments: [
        ("a=1&b=2", [("a", "1"), ("b", "2")]),
        ("a", [("a", "")]),
        ("=x", [("", "x")]),
        ("a=b=c", [("a", "b=c")]),
        ("a+b=c+d", [("a b", "c d")]),
        ("%2B=%2b", [("+", "+")]),
        ("a=%zz%4", [("a", "%zz%4")]),
        ("a=%%30", [("a", "%0")]),
        ("&&a=1&&", [("a", "1")]),
        ("a=1&a=2", [("a", "1"), ("a", "2")]),
        ("a=%E2%82%AC", [("a", "€")]),
        ("a=%C3", [("a", "\u{FFFD}")]),
    ])
    func parsesPerTheURLStandard(query: String, expected: [(String, String)]) {
        let fields = FormURLEncodedQuery(parsing: query).fields
        #expect(fields.map(\.name) == expected.map(\.0))
        #expect(fields.map(\.value) == expected.map(\.1))
    }

    @Test func firstOccurrenceWinsAndEmptyCountsAsAbsent() {
        let query = FormURLEncodedQuery(parsing: "k=&k=second&j=1&j=2")
        #expect(query.first("k") == "")
        #expect(query.firstNonEmpty("k") == nil)
        #expect(query.first("j") == "1")
        #expect(query.first("missing") == nil)
    }

    @Test func decodesExactlyOnce() {
        #expect(FormURLEncodedQuery(parsing: "v=%25252B").first("v") == "%252B")
    }
}

@Suite struct RawURLComponentsTests {
    @Test func splitsWithoutNormalising() throws {
        let parts = try #require(RawURLComponents("HTTPS://u:p@Host.Example:0443/A%2Fb?q=%41#frag?x"))
        #expect(parts.scheme == "HTTPS")
        #expect(parts.userinfo == "u:p")
        #expect(parts.host == "Host.Example")
        #expect(parts.normalizedHost == "host.example")
        #expect(parts.port == 443)
        #expect(parts.path == "/A%2Fb")
        #expect(parts.query == "q=%41")
        #expect(parts.fragment == "frag?x")
    }

    @Test(arguments: [
        "", "x", "//host/path", "https:host", "https://a b/", "https://h:65536/", "https://[::1", "1x://h",
    ])
    func rejectsWhatIsNotAStrictAbsoluteURL(_ text: String) {
        #expect(RawURLComponents(text) == nil)
    }

    @Test func effectivePortAndPathUseSchemeDefaults() throws {
        #expect(try #require(RawURLComponents("https://h")).effectivePort == 443)
        #expect(try #require(RawURLComponents("http://h")).effectivePort == 80)
        #expect(try #require(RawURLComponents("acme://h")).effectivePort == nil)
        #expect(try #require(RawURLComponents("https://h")).effectivePath == "/")
        #expect(try #require(RawURLComponents("acme://h")).effectivePath == "")
    }

    @Test func registrationRejectsUserinfoAndFragments() {
        #expect(throws: ReturnURLRegistrationError(code: .userinfoPresent)) {
            try RegisteredReturnURL("https://u@app.example.com/cb")
        }
        #expect(throws: ReturnURLRegistrationError(code: .fragmentPresent)) {
            try RegisteredReturnURL("https://app.example.com/cb#x")
        }
        #expect(throws: ReturnURLRegistrationError(code: .notHTTPS)) {
            try VerificationReturnParser(registered: ["acme://kyc/done"])
        }
        #expect(throws: ReturnURLRegistrationError(code: .noneRegistered)) {
            try ConnectReturnParser(registered: [])
        }
    }
}
