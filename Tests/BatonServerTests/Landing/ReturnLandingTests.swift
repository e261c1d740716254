import BatonCore
import BatonCrypto
import BatonHTTP
import BatonHTTPTesting
import Foundation
import Testing

@testable import BatonServer

/// The landing pages at the registered https return paths.
@Suite struct ReturnLandingTests {
    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")

    /// A configuration with BB and Privue returns on app.example.com, a generic Chia return path, an open host,
    /// store text and an Android app; `patch` edits the JSON text before loading.
    static func configurationFile(
        landing: String =
            #""returnLanding": {"openHost": "open.app.example.com", "storeFallbackText": "Get <Acme> & go"},"#,
        chia: String = #""genericReturnHost": "app.example.com", "genericReturnPath": "/home""#,
        privueReturn: String = "https://app.example.com/kyc/done",
        bbReturn: String = "https://app.example.com/bb-callback"
    ) -> String {
        """
        {
          "development": {"allowLoopbackHTTP": true},
          \(landing)
          "server": {"host": "127.0.0.1", "port": 8080, "publicOrigin": "https://app.example.com"},
          "chia": {"apiOrigin": "http://127.0.0.1:9", "assetOrigin": "http://127.0.0.1:9", \(chia)},
          "privue": {"apiOrigin": "http://127.0.0.1:9", "returnURL": "\(privueReturn)",
                     "workflows": ["merchant-onboarding"]},
          "bb": {"apiOrigin": "http://127.0.0.1:9",
                 "returnURLs": {"https": "\(bbReturn)", "customScheme": "acmewallet://bb-callback?from=app"}},
          "apps": {"apple": {"appIDs": ["ABCDE12345.com.example.wallet"]},
                   "android": {"packageName": "com.example.wallet", "sha256CertFingerprints": ["\(fingerprint)"]}}
        }
        """
    }

    static func configuration(_ file: String = configurationFile()) throws -> BackendConfiguration {
        try BackendConfiguration.load(json: Data(file.utf8), environment: TestConfiguration.environment)
    }

    static func problems(_ file: String) -> [ConfigurationError] {
        do {
            _ = try BackendConfiguration.load(json: Data(file.utf8), environment: TestConfiguration.environment)
            return []
        } catch {
            return error.errors
        }
    }

    static func text(_ response: OutboundResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// Every href on a page, in order.
    static func links(_ page: String) -> [String] {
        page.components(separatedBy: #"href=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test(arguments: HTTPTestMode.allCases)
    func eachRegisteredReturnPathAnswersWithTheLandingPage(mode: HTTPTestMode) async throws {
        let fixture = try await BackendFixture.make(.sqlite, configuration: try Self.configuration())
        try await fixture.run(mode) { api in
            for path in ["/bb-callback", "/kyc/done", "/home"] {
                let response = try await api.send(.get, path, user: nil)
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["content-type"] == "text/html; charset=utf-8")
                #expect(Self.text(response).contains(#"data-page="return-landing""#))
                let head = try await api.send(.head, path, user: nil)
                #expect(head.status == 200, "HEAD \(path)")
            }
        }
    }

    /// The return host is the host this backend serves: only the registered paths themselves are pages, nothing
    /// under them, beside them or differently spelled.
    @Test func onlyTheExactRegisteredPathsAreServed() async throws {
        let fixture = try await BackendFixture.make(.sqlite, configuration: try Self.configuration())
        try await fixture.run { api in
            for path in [
                "/", "/bb-callback/", "/bb-callback/x", "/BB-callback", "/bb%2Dcallback", "/kyc", "/kyc/done/",
                "/kyc/done.html", "//bb-callback", "/home/",
            ] {
                let response = try await api.send(.get, path, user: nil)
                #expect(response.status == 404, "\(path)")
            }
            #expect(try await api.send(.post, "/bb-callback", user: nil).status == 405)
        }
    }

    @Test func theQueryAndFragmentNeverReachThePageOrTheLog() async throws {
        let fixture = try await BackendFixture.make(.sqlite, configuration: try Self.configuration())
        try await fixture.run(.live) { api in
            let bare = try await api.send(.get, "/bb-callback", user: nil)
            let crafted = try await api.send(
                .get, "/bb-callback?sessionId=cs_SECRET_SESSION&resultCode=Ok&connectionId=conn_SECRET%3Cb%3E",
                user: nil)
            #expect(crafted.status == 200)
            #expect(crafted.body == bare.body)
            let privue = try await api.send(
                .get, "/kyc/done?verification_id=ver_SECRET&status=approved", user: nil)
            #expect(!Self.text(privue).contains("SECRET") && !Self.text(privue).contains("approved"))
        }
        let logged = fixture.logs.captured.joined(separator: "\n")
        #expect(logged.contains(#""route":"/bb-callback""#))
        #expect(!logged.contains("SECRET"))
        #expect(!logged.contains("resultCode") && !logged.contains("status=approved"))
        let metrics = fixture.backend.metrics.render()
        #expect(!metrics.contains("SECRET"))
    }

    @Test func thePageIsPrivateUncachedUnindexedAndScriptless() async throws {
        let fixture = try await BackendFixture.make(.sqlite, configuration: try Self.configuration())
        try await fixture.run { api in
            let response = try await api.send(.get, "/kyc/done", user: nil)
            #expect(response.headers["cache-control"] == "no-store")
            #expect(response.headers["referrer-policy"] == "no-referrer")
            #expect(response.headers["x-robots-tag"] == "noindex, nofollow")
            #expect(response.headers["x-content-type-options"] == "nosniff")
            let policy = try #require(response.headers["content-security-policy"])
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'none'"))
            #expect(!policy.contains("unsafe"))
            let page = Self.text(response)
            #expect(page.contains(#"<meta name="robots" content="noindex, nofollow">"#))
            #expect(!page.contains("<script") && !page.contains("<img") && !page.contains("<link"))
            #expect(!page.contains("style=\""))
            // The one inline style block is exactly the one the policy's hash allows.
            let style = try #require(
                page.components(separatedBy: "<style>").last?.components(separatedBy: "</style>").first)
            let hash = "'sha256-" + Data(SHA256.hash(Array(style.utf8))).base64EncodedString() + "'"
            #expect(policy.contains("style-src \(hash)"))
        }
    }

    @Test func theLinkGoesToTheOpenHostWithoutQueryAndTheFallbacksFollow() async throws {
        let fixture = try await BackendFixture.make(.sqlite, configuration: try Self.configuration())
        try await fixture.run { api in
            let bb = Self.text(
                try await api.send(.get, "/bb-callback?x=1", user: nil, headers: ["host": "app.example.com"]))
            #expect(
                Self.links(bb) == [
                    "https://open.app.example.com/bb-callback", "acmewallet://bb-callback",
                    "intent://app.example.com/bb-callback#Intent;scheme=https;package=com.example.wallet;end",
                ])
            #expect(
                bb.contains(
                    #"<a class="primary" href="https://open.app.example.com/bb-callback">Return to the app</a>"#))
            #expect(bb.contains("Get &lt;Acme&gt; &amp; go"))
            // Privue registers no custom scheme: no custom-scheme link on its page.
            let privue = Self.text(try await api.send(.get, "/kyc/done", user: nil))
            #expect(
                Self.links(privue) == [
                    "https://open.app.example.com/kyc/done",
                    "intent://app.example.com/kyc/done#Intent;scheme=https;package=com.example.wallet;end",
                ])
            // On the open host itself the link points back at the return host: again another associated domain.
            let open = Self.text(
                try await api.send(.get, "/kyc/done", user: nil, headers: ["host": "OPEN.app.example.com:443"]))
            #expect(Self.links(open).first == "https://app.example.com/kyc/done")
        }
    }

    @Test func withoutAnOpenHostTheCustomSchemeIsTheLinkAndTheStoreTextIsGeneric() async throws {
        let configuration = try Self.configuration(Self.configurationFile(landing: ""))
        let fixture = try await BackendFixture.make(.sqlite, configuration: configuration)
        try await fixture.run { api in
            let bb = Self.text(try await api.send(.get, "/bb-callback", user: nil))
            #expect(Self.links(bb).first == "acmewallet://bb-callback")
            #expect(bb.contains("check that it is installed"))
            let privue = Self.text(try await api.send(.get, "/kyc/done", user: nil))
            #expect(!privue.contains("class=\"primary\""))
        }
    }

    @Test func theAssociationFileCoversEveryLandingPath() throws {
        let documents = WellKnownDocuments(configuration: try Self.configuration())
        let body = try documents.appleAppSiteAssociation().body
        let document = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let details = (document["applinks"] as? [String: Any])?["details"] as? [[String: Any]]
        let components = details?.first?["components"] as? [[String: String]]
        #expect(components == [["/": "/bb-callback"], ["/": "/kyc/done"], ["/": "/home"]])
        #expect(try Self.configuration().associatedHosts == ["app.example.com", "open.app.example.com"])
    }

    @Test(arguments: [
        (#""returnLanding": {"openHost": "app.example.com"},"#, "returnLanding.openHost"),
        (#""returnLanding": {"openHost": "https://open.example"},"#, "returnLanding.openHost"),
        (#""returnLanding": {"openHost": "open.example", "colour": "red"},"#, "returnLanding.colour"),
    ])
    func aBadLandingSettingIsRefused(landing: String, field: String) {
        #expect(Self.problems(Self.configurationFile(landing: landing)).map(\.field) == [field])
    }

    @Test(arguments: [
        ("https://app.example.com/healthz", "privue.returnURL"),
        ("https://app.example.com/v2/catalog", "privue.returnURL"),
        ("https://app.example.com/.well-known/x", "privue.returnURL"),
        ("https://app.example.com/web/privue.html", "privue.returnURL"),
        ("https://app.example.com/kyc/{id}", "privue.returnURL"),
    ])
    func aReturnPathThatWouldTakeOverABackendRouteIsRefused(url: String, field: String) {
        #expect(Self.problems(Self.configurationFile(privueReturn: url)).map(\.field) == [field])
    }

    @Test func aGenericReturnPathNeedsItsHost() {
        let file = Self.configurationFile(chia: #""genericReturnPath": "/home""#)
        #expect(Self.problems(file).map(\.field) == ["chia.genericReturnPath"])
    }
}
