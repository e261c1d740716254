import BatonCore
import BatonHTTP
import BatonHTTPTesting
import Foundation
import Testing

@testable import BatonServer

@Suite struct WebShellTests {
    let signer = SignedTokenAuthenticator(key: Secret(String(repeating: "k", count: 32)))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let secret = Secret("per-run-secret-0123456789ab")
    static let withSecret: (String, String) = ("X-Baton-Dev-Secret", "per-run-secret-0123456789ab")

    func router(devSignIn: Bool = false, imageOrigins: [String] = []) throws -> Router {
        let signIn =
            devSignIn
            ? WebDevSignIn(authenticator: signer, tokenTTL: 600, secret: Self.secret, now: { [now] in now }) : nil
        var router = Router()
        WebShell(imageOrigins: imageOrigins, devSignIn: signIn).install(into: &router)
        return router
    }

    /// The binary serves exactly the files of `Sources/BatonServer/Web/Files/` but the partials (`_*`): CSS and script
    /// byte for byte, each page as its file with its include lines replaced by the sign-in and nav partials, the
    /// link to the page itself marked `aria-current="page"`.
    @Test func theBinaryHoldsEveryPage() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appending(path: "Sources/BatonServer/Web/Files")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix("_") }
        #expect(names.count >= 5)
        #expect(WebShell().assetNames == names.sorted())
        let nav = try String(contentsOf: folder.appending(path: "_nav.html"), encoding: .utf8)
        let signIn = try String(contentsOf: folder.appending(path: "_sign-in.html"), encoding: .utf8)
        for name in names {
            var expected = try String(contentsOf: folder.appending(path: name), encoding: .utf8)
                .replacing("<!-- include _sign-in.html -->\n", with: signIn)
            if let include = expected.firstMatch(of: #/<!-- include _nav.html current="([^"]+)" -->\n/#) {
                let link = "href=\"\(include.output.1)\""
                expected.replaceSubrange(
                    include.range, with: nav.replacing(link, with: link + " aria-current=\"page\"", maxReplacements: 1))
            }
            #expect(WebShellAssets.all[name] == expected, "\(name)")
            #expect(!(WebShellAssets.all[name] ?? "").contains("<!-- include"), "\(name)")
        }
        #expect(WebShellAssets.all.values.filter { $0.contains("aria-current=\"page\"") }.count == 3)
    }

    /// The assets are embedded string constants (no resource bundle): what is served is exactly that text, each file
    /// ending in one newline.
    @Test func eachPageIsServedByteForByteFromItsConstant() async throws {
        try await router().test(.inProcess) { client in
            for (name, text) in WebShellAssets.all {
                let body = try await client.execute(.get, "/web/\(name)").body
                #expect(body == Array(text.utf8), "\(name)")
                #expect(text.hasSuffix(">\n") || text.hasSuffix("}\n") || text.hasSuffix(";\n"), "\(name)")
                #expect(!text.hasSuffix("\n\n"), "\(name)")
            }
        }
    }

    @Test(arguments: HTTPTestMode.allCases)
    func everyAssetCarriesTheConformanceHeaders(mode: HTTPTestMode) async throws {
        try await router().test(mode) { client in
            for (path, expected) in RendererConformanceFile.expectedHeaders {
                let response = try await client.execute(.get, path)
                #expect(response.status == 200, "\(path)")
                #expect(!response.body.isEmpty, "\(path)")
                for (name, value) in expected {
                    #expect(response.headers[name] == value, "\(path) \(name)")
                }
            }
        }
    }

    @Test func theCatalogPageLoadsOnlyItsOwnScriptAndStyle() async throws {
        try await router().test(.inProcess) { client in
            let page = String(decoding: try await client.execute(.get, "/web/").body, as: UTF8.self)
            #expect(page.contains(#"<script src="/web/shell.js" defer></script>"#))
            #expect(page.components(separatedBy: "<script").count == 2)
            #expect(!page.contains("style="))
            #expect(!page.contains("http://") && !page.contains("https://"))
        }
    }

    @Test func imagesMayComeFromThePublicOrigin() async throws {
        let router = try router(imageOrigins: ["https://partner.example", "https://bad.example/path 'unsafe-inline'"])
        try await router.test(.inProcess) { client in
            let policy = try await client.execute(.get, "/web/").headers["content-security-policy"] ?? ""
            #expect(policy.contains("img-src 'self' https://partner.example;"))
            #expect(!policy.contains("bad.example"))
        }
    }

    @Test func scriptsRevalidateByETag() async throws {
        try await router().test(.inProcess) { client in
            let first = try await client.execute(.get, "/web/shell.js")
            let etag = try #require(first.headers["etag"])
            let second = try await client.execute(.get, "/web/shell.js", headers: ["if-none-match": etag])
            #expect(second.status == 304)
            #expect(second.body.isEmpty)
            #expect(second.headers["content-security-policy"] != nil)
            let page = try await client.execute(.get, "/web/", headers: ["if-none-match": "*"])
            #expect(page.status == 200)
            #expect(page.headers["etag"] == nil)
        }
    }

    @Test func unknownPathsAreNotFoundAndTheBareFolderRedirects() async throws {
        try await router().test(.inProcess) { client in
            let missing = try await client.execute(.get, "/web/missing.js")
            #expect(missing.status == 404)
            let traversal = try await client.execute(.get, "/web/..%2fPackage.swift")
            #expect(traversal.status == 404)
            let bare = try await client.execute(.get, "/web")
            #expect(bare.status == 308)
            #expect(bare.headers["location"] == "/web/")
        }
    }

    @Test func theDevTokenExistsOnlyWithTheSandboxSignIn() async throws {
        try await router().test(.inProcess) { client in
            let response = try await client.execute(.post, "/web/dev-token?user=user-1")
            #expect(response.status == 404)
        }
    }

    @Test(arguments: HTTPTestMode.allCases)
    func theDevTokenSignsInTheNamedUser(mode: HTTPTestMode) async throws {
        try await router(devSignIn: true).test(mode) { client in
            let response = try await client.execute(
                .post, "/web/dev-token?user=user-1",
                headers: ["host": "127.0.0.1", "x-baton-dev-secret": "per-run-secret-0123456789ab"])
            #expect(response.status == 200)
            #expect(response.headers["cache-control"] == "no-store")
            let answer = try JSONSerialization.jsonObject(with: Data(response.body)) as! [String: String]
            let token = try #require(answer["token"])
            #expect(signer.authenticate(bearerToken: token, now: now) == AuthenticatedUser(id: "user-1"))
            #expect(answer["expiresAt"] == "2027-01-15T08:10:00Z")
        }
    }

    @Test(arguments: ["", "user=", "user=a%20b", "user=" + String(repeating: "a", count: 65), "name=user-1"])
    func theDevTokenRefusesOddUsers(query: String) async throws {
        try await router(devSignIn: true).test(.inProcess) { client in
            let response = try await client.execute(
                .post, "/web/dev-token?" + query,
                headers: ["host": "127.0.0.1", "x-baton-dev-secret": "per-run-secret-0123456789ab"])
            #expect(response.status == 400)
        }
    }

    /// A peer, then header fields, and whether the sign-in answers: a loopback peer alone is not enough.
    static let devTokenRequests: [(peer: String, headers: [(String, String)], answers: Bool)] = [
        ("127.0.0.1", [("Host", "127.0.0.1:8080"), withSecret], true),
        ("::1", [("Host", "[::1]:8080"), ("Origin", "http://[::1]:8080"), withSecret], true),
        ("127.0.0.1", [("Host", "localhost:8080"), ("Origin", "http://localhost:8080"), withSecret], true),
        // A default nginx proxy_pass: Host rewritten to the upstream, no forwarding field; only the secret stops it.
        ("127.0.0.1", [("Host", "127.0.0.1:8080")], false),
        ("127.0.0.1", [("Host", "127.0.0.1:8080"), ("X-Baton-Dev-Secret", "per-run-secret-0123456789aX")], false),
        ("127.0.0.1", [("Host", "127.0.0.1:8080"), ("X-Baton-Dev-Secret", "")], false),
        // A proxy that says so in Via is a relay, even with the secret.
        ("127.0.0.1", [("Host", "127.0.0.1:8080"), ("Via", "1.1 proxy.example"), withSecret], false),
        ("10.0.0.7", [("Host", "127.0.0.1:8080")], false),
        ("127.0.0.1", [("Host", "127.0.0.1:8080"), ("X-Forwarded-For", "203.0.113.9")], false),
        ("127.0.0.1", [("Host", "127.0.0.1:8080"), ("Forwarded", "for=203.0.113.9")], false),
        ("127.0.0.1", [("Host", "127.0.0.1:8080"), ("X-Forwarded-Proto", "https")], false),
        ("127.0.0.1", [("Host", "api.partner.example")], false),
        ("127.0.0.1", [("Host", "127.attacker.example:8080")], false),
        ("127.0.0.1", [], false),
        ("127.0.0.1", [("Host", "127.0.0.1:8080"), ("Origin", "https://attacker.example")], false),
        ("127.0.0.1", [("Host", "127.0.0.1:8080"), ("Origin", "null")], false),
        ("127.0.0.1", [("Host", "127.0.0.1:8080"), ("Origin", "http://127.0.0.1:9999")], false),
    ]

    @Test(arguments: devTokenRequests.indices)
    func theDevTokenAnswersOnlyLocalPagesAndTools(index: Int) throws {
        let (peer, fields, answers) = Self.devTokenRequests[index]
        let signIn = WebDevSignIn(authenticator: signer, tokenTTL: 600, secret: Self.secret)
        var request = HTTPRequest(method: .post, target: "/web/dev-token?user=user-1", headers: HTTPHeaders(fields))
        request.remoteAddress = peer
        if answers {
            #expect(try signIn.respond(to: request).status == 200)
        } else {
            let error = #expect(throws: HTTPError.self) { try signIn.respond(to: request) }
            #expect(error?.status == 403)
            #expect(error?.code == "not_local")
        }
    }

    @Test func aDevelopmentConfigurationAloneDoesNotMountTheDevToken() async throws {
        let configuration = try TestConfiguration.make()
        #expect(configuration.allowsLoopbackHTTP)
        var router = Router()
        WebShell(configuration: configuration).install(into: &router)
        try await router.test(.inProcess) { client in
            let response = try await client.execute(.post, "/web/dev-token?user=user-1", headers: ["host": "127.0.0.1"])
            #expect(response.status == 404)
        }
        var sandbox = Router()
        WebShell(configuration: configuration, devSignInSecret: Self.secret).install(into: &sandbox)
        try await sandbox.test(.inProcess) { client in
            let response = try await client.execute(
                .post, "/web/dev-token?user=user-1",
                headers: ["host": "127.0.0.1:8080", "x-baton-dev-secret": "per-run-secret-0123456789ab"])
            #expect(response.status == 200)
        }
    }
}
