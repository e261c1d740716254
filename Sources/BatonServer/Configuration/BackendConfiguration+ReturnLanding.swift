import BatonCore
import Foundation

extension BackendConfiguration {
    /// The landing pages `baton serve` answers at the registered https return paths (`returnLanding` in the file).
    ///
    /// When a universal link or app link does not fire (a JavaScript redirect, "open in browser"), the browser loads
    /// the https return URL itself; the landing page there offers one tap back into the app. Apple opens the app
    /// only for a tap towards *another* associated domain, so the page links to ``openHost``, a second host the app
    /// lists in its Associated Domains and that serves the same association file.
    public struct ReturnLanding: Sendable, Hashable {
        /// The second associated host the "Return to the app" link goes to (`open.app.example.com`), if configured.
        public var openHost: String?
        /// The partner's text for a user without the app (where to get it), shown under the links.
        public var storeFallbackText: String?

        /// Creates the settings.
        public init(openHost: String? = nil, storeFallbackText: String? = nil) {
            self.openHost = openHost
            self.storeFallbackText = storeFallbackText
        }
    }

    /// The exact paths the landing pages are served at: the https return paths of BB and Privue and the Chia generic
    /// return path when configured, each once, in that order.
    public var landingPaths: [String] {
        var paths: [String] = []
        for url in [bb.httpsReturnURL, privue.returnURL] {
            if let path = RawURLComponents(url.string).map({ String($0.effectivePath) }), !paths.contains(path) {
                paths.append(path)
            }
        }
        if let path = chia.genericReturnPath, !paths.contains(path) { paths.append(path) }
        return paths
    }

    /// The hosts the well-known files must be served on: every https return host, the Chia generic return host and
    /// the landing page's open host, each once.
    public var associatedHosts: [String] {
        var hosts: [String] = []
        let candidates =
            [bb.httpsReturnURL, privue.returnURL].compactMap { RawURLComponents($0.string)?.normalizedHost }
            + [chia.genericReturnHost?.lowercased(), returnLanding.openHost].compactMap { $0 }
        for host in candidates where !hosts.contains(host) { hosts.append(host) }
        return hosts
    }
}

extension ConfigurationReader {
    /// Paths of the backend's own routes, which a return path must not take over.
    static let backendPathPrefixes = ["/v2", "/webhooks", "/.well-known", "/web", "/assets", "/_sandbox"]
    static let backendExactPaths: Set<String> = ["/healthz", "/readyz", "/metrics", "/openapi.json"]

    /// A bare DNS host name: letters, digits, hyphens and dots, lowercased; `nil` (with a failure) otherwise.
    static func isHostName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 253 && !text.hasPrefix(".") && !text.hasSuffix(".") && !text.contains("..")
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }

    /// Whether `path` can be a landing route: a plain absolute path (RFC 3986 `pchar`s, no `{}` route syntax) that
    /// is not one of the backend's own routes.
    static func landingPathProblem(_ path: String) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/%")
        guard path.hasPrefix("/"), path.allSatisfy({ allowed.contains($0) }) else {
            return "must be a plain path (letters, digits and -._~!$&'()*+,;=:@/%) for its landing page"
        }
        if backendExactPaths.contains(path)
            || backendPathPrefixes.contains(where: { path == $0 || path.hasPrefix($0 + "/") })
        {
            return "takes over one of the backend's own routes (\(path)); choose a return path of its own"
        }
        return nil
    }

    mutating func returnLanding(_ root: [String: JSONValue]) -> BackendConfiguration.ReturnLanding {
        let object = self.object(
            root, "returnLanding", path: "returnLanding", known: ["openHost", "storeFallbackText"], required: false)
        var landing = BackendConfiguration.ReturnLanding()
        if object["openHost"] != nil {
            let host = string(object, "openHost", path: "returnLanding.openHost").lowercased()
            if Self.isHostName(host) {
                landing.openHost = host
            } else {
                fail("returnLanding.openHost", "must be a bare host name, such as open.app.example.com")
            }
        }
        if object["storeFallbackText"] != nil {
            let text = string(object, "storeFallbackText", path: "returnLanding.storeFallbackText")
            if text.count > 500 {
                fail("returnLanding.storeFallbackText", "must be at most 500 characters")
            } else if !text.isEmpty {
                landing.storeFallbackText = text
            }
        }
        return landing
    }

    /// The landing-related checks across sections: the open host differs from every return host, and every
    /// landing path is a plain path of its own. `returnURLs` are the https return URLs by field (`nil`: invalid, and
    /// already reported).
    mutating func checkLanding(
        returnURLs: [(field: String, url: RegisteredReturnURL?)], chia: BackendConfiguration.Chia,
        landing: BackendConfiguration.ReturnLanding
    ) {
        let returnHosts =
            returnURLs.compactMap { $0.url.flatMap { RawURLComponents($0.string)?.normalizedHost } }
            + [chia.genericReturnHost?.lowercased()].compactMap { $0 }
        if let open = landing.openHost, returnHosts.contains(open) {
            fail(
                "returnLanding.openHost",
                "must be a second host, not the return URL's own: Safari opens the app only for a link to another "
                    + "associated domain")
        }
        for (field, url) in returnURLs {
            guard let url, url.isHTTPS else { continue }
            guard let path = RawURLComponents(url.string).map({ String($0.effectivePath) }) else { continue }
            if let problem = Self.landingPathProblem(path) { fail(field, problem) }
        }
        if let path = chia.genericReturnPath {
            if chia.genericReturnHost == nil {
                fail("chia.genericReturnPath", "needs chia.genericReturnHost")
            }
            if let problem = Self.landingPathProblem(path) { fail("chia.genericReturnPath", problem) }
        }
    }
}
