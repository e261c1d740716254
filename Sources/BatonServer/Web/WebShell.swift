import BatonCore
import BatonHTTP
import Foundation

/// The web reference shell: static HTML, CSS and one JavaScript file served under `/web/`.
///
/// The files are `Web/Files/` of this target, embedded into the binary at build time (``WebShellAssets``), so the
/// shell needs no resource bundle and no path on disk (a moved binary serves the same pages from memory). Every
/// response carries `WebShellHeaders`: a strict Content-Security-Policy (no inline script, nothing from another origin
/// but the mirrored images), `nosniff` and `Referrer-Policy: no-referrer`. HTML is `no-store`; CSS and JavaScript
/// revalidate by `ETag`.
///
/// ```swift
/// var router = Router()
/// let shell = WebShell(configuration: configuration)
/// shell.install(into: &router)
/// ```
public struct WebShell: Sendable {
    /// One file the shell serves.
    struct Asset: Sendable {
        let body: [UInt8]
        let contentType: String
        let cacheControl: String
        let etag: String
    }

    private let assets: [String: Asset]
    private let headers: WebShellHeaders
    private let devSignIn: WebDevSignIn?

    /// Creates the shell from the compiled-in assets.
    ///
    /// - Parameters:
    ///   - imageOrigins: origins besides the backend's own that card images may load from (the backend's public
    ///     origin, when it differs from the one the page is served from).
    ///   - devSignIn: the sandbox sign-in; `nil` outside `--sandbox`, and then `/web/dev-token` does not exist.
    public init(imageOrigins: [String] = [], devSignIn: WebDevSignIn? = nil) {
        self.init(files: WebShellAssets.all, imageOrigins: imageOrigins, devSignIn: devSignIn)
    }

    /// Creates the shell for a backend configuration: images from its public origin, and the dev sign-in only when
    /// the caller asks for it (`baton serve --sandbox`, `baton demo`) *and* the configuration is a development one
    /// (``BackendConfiguration/allowsLoopbackHTTP``).
    ///
    /// - Parameter devSignInSecret: the per-run secret the dev sign-in asks for; `nil` mounts no dev sign-in.
    public init(
        configuration: BackendConfiguration, devSignInSecret: Secret? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        let devSignIn =
            configuration.allowsLoopbackHTTP
            ? devSignInSecret.map { secret in
                WebDevSignIn(
                    authenticator: SignedTokenAuthenticator(configuration: configuration),
                    tokenTTL: configuration.tokenTTL, secret: secret, now: now)
            } : nil
        self.init(imageOrigins: [configuration.server.publicOrigin], devSignIn: devSignIn)
    }

    init(files: [String: String], imageOrigins: [String], devSignIn: WebDevSignIn?) {
        var assets: [String: Asset] = [:]
        for (name, text) in files {
            guard let kind = Self.contentTypes[(name as NSString).pathExtension] else { continue }
            let body = Array(text.utf8)
            assets[name] = Asset(
                body: body, contentType: kind.type, cacheControl: kind.cacheControl, etag: Self.etag(body))
        }
        self.assets = assets
        self.headers = WebShellHeaders(imageOrigins: imageOrigins)
        self.devSignIn = devSignIn
    }

    /// The file names served, for diagnostics and tests.
    var assetNames: [String] { assets.keys.sorted() }

    /// Mounts `GET /web/` (the catalog page), `GET /web/<file>` for each asset, a redirect from `/web`, and, in the
    /// sandbox, `POST /web/dev-token`.
    public func install(into router: inout Router) {
        let headers = self.headers
        router.get("/web") { _ in
            var response = HTTPResponse(status: 308, headers: ["location": "/web/"])
            headers.apply(to: &response, cacheControl: "no-store")
            return response
        }
        if let index = assets["index.html"] {
            router.get("/web/") { request in headers.respond(with: index, to: request) }
        }
        for (name, asset) in assets {
            router.get("/web/\(name)") { request in headers.respond(with: asset, to: request) }
        }
        if let devSignIn {
            router.post("/web/dev-token") { request in
                var response = try devSignIn.respond(to: request)
                headers.apply(to: &response, cacheControl: "no-store")
                return response
            }
        }
    }

    private static let contentTypes: [String: (type: String, cacheControl: String)] = [
        "html": ("text/html; charset=utf-8", "no-store"),
        "css": ("text/css; charset=utf-8", "no-cache"),
        "js": ("text/javascript; charset=utf-8", "no-cache"),
        "svg": ("image/svg+xml", "no-cache"),
        "png": ("image/png", "no-cache"),
    ]

    private static func etag(_ body: [UInt8]) -> String {
        // FNV-1a 64: a change detector for revalidation, not a security property.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\"" + String(hash, radix: 16) + "\""
    }
}
