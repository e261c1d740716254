import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

@Suite struct WebShellTests {
    let signer = SignedTokenAuthenticator(key: Secret(String(repeating: "k", count: 32)))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func router(devSignIn: Bool = false, imageOrigins: [String] = []) throws -> Router {
        let signIn = devSignIn ? WebDevSignIn(authenticator: signer, tokenTTL: 600, now: { [now] in now }) : nil
        var router = Router()
        try WebShell(imageOrigins: imageOrigins, devSignIn: signIn).install(into: &router)
        return router
    }

    @Test func theBinaryHoldsEveryPage() throws {
        let shell = try WebShell()
        #expect(shell.assetNames == ["bb.html", "index.html", "privue.html", "shell.css", "shell.js"])
    }

    /// The assets are compiled-in string constants (no resource bundle): what is served is exactly that text, each
    /// file ending in one newline.
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
            let response = try await client.execute(.post, "/web/dev-token?user=user-1")
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
            let response = try await client.execute(.post, "/web/dev-token?" + query)
            #expect(response.status == 400)
        }
    }

    @Test func theDevTokenAnswersOnlyLoopbackPeers() throws {
        let signIn = WebDevSignIn(authenticator: signer, tokenTTL: 600)
        var request = HTTPRequest(method: .post, target: "/web/dev-token?user=user-1")
        request.remoteAddress = "10.0.0.7"
        #expect(throws: HTTPError.notFound) { try signIn.respond(to: request) }
        request.remoteAddress = "127.0.0.1"
        let response = try signIn.respond(to: request)
        #expect(response.status == 200)
    }
}
