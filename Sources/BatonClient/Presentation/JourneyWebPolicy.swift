import BatonCore

/// Every decision the camera web view makes (seed 001 "What the in-app browser must support"), made here so the
/// WebKit presenter only asks and obeys.
///
/// Media capture: the camera alone, and only for the journey's own origin (scheme, host, effective port); the
/// microphone never, and a request for camera and microphone together is denied whole (WebKit has no partial grant).
/// A navigation that matches a registered return URL ends the journey with that link. Other `https` navigations (the
/// consent provider's domain and back) are allowed; `about:`, `blob:` and `data:` stay in-page; everything else
/// (custom schemes, `http`) is refused — except loopback `http` (`127.0.0.0/8`, `[::1]`, `localhost`) under the
/// development switch ``URLPolicy/development`` (the local sandbox's Privue journey in the Simulator).
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

    /// What a page asked to capture (`WKMediaCaptureType`).
    public enum MediaCapture: Sendable, Hashable, CaseIterable {
        /// The camera alone.
        case camera
        /// The microphone alone.
        case microphone
        /// Both at once.
        case cameraAndMicrophone
    }

    /// The answer to a media-capture request (`WKPermissionDecision`); never "prompt".
    public enum MediaCaptureDecision: Sendable, Hashable {
        /// Let the page capture (iOS still asks the user once, from `NSCameraUsageDescription`).
        case grant
        /// Refuse.
        case deny
    }

    private let journeyScheme: String
    private let journeyHost: String
    private let journeyPort: Int?
    private let returnURLs: [RegisteredReturnURL]
    private let urls: URLPolicy

    /// A policy for the journey at `journeyURL` returning to `returnURLs`.
    ///
    /// `urls` is the development switch: ``URLPolicy/production`` (the default, and always in a release build)
    /// allows only `https`; ``URLPolicy/development`` also loopback `http` (the local sandbox).
    public init(
        journeyURL: SensitiveURL, returnURLs: [RegisteredReturnURL], urls: URLPolicy = .production
    ) {
        let parts = RawURLComponents(journeyURL.revealForPresentation())
        journeyScheme = parts?.normalizedScheme ?? journeyURL.scheme
        journeyHost = parts?.normalizedHost ?? journeyURL.host
        journeyPort = parts?.effectivePort
        self.returnURLs = returnURLs
        self.urls = urls
    }

    /// Whether a page at `scheme://host:port` may use the camera: only the journey's own origin.
    public func grantsCamera(scheme: String, host: String, port: Int?) -> Bool {
        let scheme = scheme.lowercased()
        let effectivePort = port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        return scheme == journeyScheme && host.lowercased() == journeyHost && effectivePort == journeyPort
            && isSecure(scheme: journeyScheme, host: journeyHost)
    }

    /// The answer to `capture` requested by a page of the origin WebKit reports (`WKSecurityOrigin`: `protocol`,
    /// `host`, and `port`, which is 0 for the scheme's default port): grant the camera alone to the journey's origin,
    /// deny everything else.
    public func decide(
        mediaCapture capture: MediaCapture, scheme: String, host: String, port: Int
    ) -> MediaCaptureDecision {
        guard capture == .camera, grantsCamera(scheme: scheme, host: host, port: port == 0 ? nil : port) else {
            return .deny
        }
        return .grant
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
        return isSecure(scheme: parts.normalizedScheme, host: parts.normalizedHost) && parts.userinfo == nil
            ? .allow : .cancel
    }

    /// `https`, or loopback `http` under the development switch.
    private func isSecure(scheme: String, host: String) -> Bool {
        urls.acceptsAsSecure(scheme: scheme, host: host)
    }
}
