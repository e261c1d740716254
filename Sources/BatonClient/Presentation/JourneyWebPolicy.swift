import BatonCore

/// Every decision the camera web view makes (seed 001 "What the in-app browser must support"), made here so the
/// WebKit presenter only asks and obeys.
///
/// The camera is granted only to the journey's own origin (scheme, host, effective port). A navigation that matches a
/// registered return URL ends the journey with that link. Other `https` navigations (the consent provider's domain
/// and back) are allowed; `about:`, `blob:` and `data:` stay in-page; everything else (custom schemes, `http`) is
/// refused.
public struct JourneyWebPolicy: Sendable, Hashable {
    /// What to do with a navigation.
    public enum NavigationDecision: Sendable, Hashable {
        /// Let the web view load it.
        case allow
        /// Cancel it, close the web view and deliver the link as the journey's return.
        case interceptReturn(String)
        /// Cancel it.
        case cancel
    }

    private let journeyScheme: String
    private let journeyHost: String
    private let journeyPort: Int?
    private let returnURLs: [RegisteredReturnURL]

    /// A policy for the journey at `journeyURL` returning to `returnURLs`.
    public init(journeyURL: SensitiveURL, returnURLs: [RegisteredReturnURL]) {
        let parts = RawURLComponents(journeyURL.revealForPresentation())
        journeyScheme = parts?.normalizedScheme ?? journeyURL.scheme
        journeyHost = parts?.normalizedHost ?? journeyURL.host
        journeyPort = parts?.effectivePort
        self.returnURLs = returnURLs
    }

    /// Whether a page at `scheme://host:port` may use the camera: only the journey's own origin.
    public func grantsCamera(scheme: String, host: String, port: Int?) -> Bool {
        let effectivePort = port ?? (scheme.lowercased() == "https" ? 443 : nil)
        return scheme.lowercased() == journeyScheme && host.lowercased() == journeyHost
            && effectivePort == journeyPort && journeyScheme == "https"
    }

    /// What to do with a main-frame or sub-frame navigation to `url` (the string WebKit reports).
    public func decide(navigationTo url: String) -> NavigationDecision {
        guard let parts = RawURLComponents(url) else {
            let scheme = url.prefix { $0 != ":" }.lowercased()
            return ["about", "blob", "data"].contains(scheme) ? .allow : .cancel
        }
        if parts.userinfo == nil, returnURLs.contains(where: { $0.matches(parts) }) {
            return .interceptReturn(url)
        }
        return parts.normalizedScheme == "https" && parts.userinfo == nil ? .allow : .cancel
    }
}
