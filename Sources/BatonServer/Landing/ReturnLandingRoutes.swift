import BatonCore
import BatonHTTP
import Foundation

/// `GET` (and `HEAD`) at exactly each registered https return path: the landing page a browser shows when the
/// universal link or app link did not open the app (CONTRACTS.md §2.1).
///
/// The route is the exact path, so the access log records that path as the route and never the query (see
/// ``AccessLogMiddleware``); the page is the same whatever query or fragment the provider appended. Responses are
/// `no-store`, `no-referrer`, `noindex` (`X-Robots-Tag` and a meta tag) and carry a CSP that allows no script and no
/// resource at all. On the open host the "Return to the app" link points back to the return URL's own host, so a
/// tap there is again a tap towards another associated domain.
struct ReturnLandingRoutes: Sendable {
    /// One landing path and its two pages: as served on the return host, and as served on the open host.
    struct Landing: Sendable {
        let path: String
        let onReturnHost: [UInt8]
        let onOpenHost: [UInt8]
    }

    let landings: [Landing]
    let openHost: String?

    init(configuration: BackendConfiguration) {
        openHost = configuration.returnLanding.openHost
        var landings: [Landing] = []
        for path in configuration.landingPaths {
            let returnHost = Self.returnHost(of: path, in: configuration)
            let custom = configuration.bb.customSchemeReturnURL.flatMap { custom -> String? in
                guard RawURLComponents(configuration.bb.httpsReturnURL.string)?.effectivePath[...] == path[...]
                else { return nil }
                return String(custom.string.prefix { $0 != "?" && $0 != "#" })
            }
            let intent = configuration.apps.androidPackageName.map {
                "intent://\(returnHost)\(path)#Intent;scheme=https;package=\($0);end"
            }
            let store = configuration.returnLanding.storeFallbackText
            let openLink = openHost.map { "https://\($0)\(path)" }
            let fromReturnHost = ReturnLandingPage(
                primaryLink: openLink ?? custom, customSchemeLink: openLink == nil ? nil : custom,
                androidIntentLink: intent, storeFallbackText: store)
            var fromOpenHost = fromReturnHost
            fromOpenHost.primaryLink = openHost == nil ? fromReturnHost.primaryLink : "https://\(returnHost)\(path)"
            landings.append(
                Landing(
                    path: path, onReturnHost: Array(fromReturnHost.html.utf8),
                    onOpenHost: Array(fromOpenHost.html.utf8)))
        }
        self.landings = landings
    }

    /// Mounts `GET path` for every landing path.
    func install(into router: inout Router) {
        for landing in landings {
            let openHost = self.openHost
            router.get(landing.path) { request in
                let host = Self.hostName(request.headers["host"])
                let body = openHost != nil && host == openHost ? landing.onOpenHost : landing.onReturnHost
                var response = HTTPResponse(
                    status: 200, headers: ["content-type": "text/html; charset=utf-8"], body: body)
                Self.applyHeaders(to: &response)
                return response
            }
        }
    }

    /// The landing page's security and caching headers.
    static func applyHeaders(to response: inout HTTPResponse) {
        response.headers.set("cache-control", "no-store")
        response.headers.set("referrer-policy", "no-referrer")
        response.headers.set("content-security-policy", ReturnLandingPage.contentSecurityPolicy)
        response.headers.set("x-robots-tag", "noindex, nofollow")
        response.headers.set("x-content-type-options", "nosniff")
        response.headers.set("x-frame-options", "DENY")
    }

    /// The `Host` header's name, lowercased, without a port.
    static func hostName(_ header: String?) -> String? {
        guard let header, !header.isEmpty else { return nil }
        if header.hasPrefix("[") { return header.prefix { $0 != "]" }.lowercased() + "]" }
        return header.prefix { $0 != ":" }.lowercased()
    }

    /// The host of the return URL registered at `path`: BB's, then Privue's, then the Chia generic return host.
    private static func returnHost(of path: String, in configuration: BackendConfiguration) -> String {
        for url in [configuration.bb.httpsReturnURL, configuration.privue.returnURL] {
            if let parts = RawURLComponents(url.string), parts.effectivePath[...] == path[...] {
                return parts.port.map { "\(parts.normalizedHost):\($0)" } ?? parts.normalizedHost
            }
        }
        return configuration.chia.genericReturnHost?.lowercased() ?? ""
    }
}
