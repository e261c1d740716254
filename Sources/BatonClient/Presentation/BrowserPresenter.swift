import BatonCore

/// Which browser component a flow's journey must open in (docs/providers.md: one per provider).
public enum BrowserStyle: Sendable, Hashable {
    /// The OS external browser (Chia): no web view, no custom tab, nothing observed; nothing comes back here.
    case externalBrowser
    /// `ASWebAuthenticationSession` (BB), catching `callback`.
    case authenticationSession(callback: ConnectCallback)
    /// The camera-capable in-app web view (Privue), one instance for the whole journey; navigations matching
    /// `policy`'s return URLs end it with that link.
    case cameraWebView(policy: JourneyWebPolicy)

    /// The telemetry category of this style.
    public var kind: TelemetryEvent.BrowserKind {
        switch self {
        case .externalBrowser: .external
        case .authenticationSession: .authenticationSession
        case .cameraWebView: .cameraWebView
        }
    }
}

/// How a presented journey ended, as far as the app can see.
public enum BrowserCompletion: Sendable, Hashable {
    /// The URL went to the OS browser, which owns the journey now (external browser only).
    case handedToSystem
    /// The URL could not be opened.
    case failedToOpen
    /// The browser caught a return link; the raw string exactly as delivered, for the flow's strict parser.
    case returned(String)
    /// The user closed the browser without a return (`ASWebAuthenticationSessionError.canceledLogin`, the web
    /// view's close button).
    case closedWithoutReturn
    /// The browser ended with an error that is not the user's close: the session's presentation context was
    /// missing or invalid, or something other than the user dismissed the web view. The flow still asks the
    /// backend, and telemetry records ``TelemetryEvent/browserFailed(_:_:)``.
    case failed
    /// The calling task was cancelled: the presenter cancelled the session or dismissed the web view. The flow is
    /// being stopped, so nothing is asked.
    case cancelled

    /// How an `ASWebAuthenticationSession` completion handler's arguments end the presentation: a delivered URL is
    /// the return (as delivered, for the strict parser); the user's cancel, or no URL and no error (seed 002: "a nil
    /// URL means the user closed the sheet"), is a close; any other error is a failure.
    public static func authenticationSessionEnded(
        callbackURL: String?, error: AuthenticationSessionError?
    ) -> BrowserCompletion {
        if let callbackURL { return .returned(callbackURL) }
        switch error {
        case nil, .canceledLogin: return .closedWithoutReturn
        case .other: return .failed
        }
    }

    /// The part of an `ASWebAuthenticationSessionError` a flow acts on.
    public enum AuthenticationSessionError: Sendable, Hashable {
        /// `ASWebAuthenticationSessionError.Code.canceledLogin`: the user closed the sheet.
        case canceledLogin
        /// Any other error (no or an invalid presentation context, or an error of another domain).
        case other
    }
}

/// Opens a journey URL in one of the three browser styles and reports how it ended.
///
/// Implementations: `ExternalBrowserPresenter`, `AuthenticationSessionPresenter` and `CameraWebViewPresenter` in
/// BatonApple; a headless presenter (tests, `baton demo`) that fetches the hosted page and returns the link the
/// journey redirects to. `present` receives the `SensitiveURL` and is the only place that reveals it; it returns
/// when the journey is over (or, for the external browser, as soon as the OS has taken the URL).
public protocol BrowserPresenter: Sendable {
    /// Presents `url` in `style` and returns how the journey ended.
    func present(_ url: SensitiveURL, style: BrowserStyle) async -> BrowserCompletion
}
