/// The return URL an `ASWebAuthenticationSession` catches for BB (seed 002 "iOS").
///
/// On iOS 17.4+ the session catches the universal-link return (`.https(host:path:)`); below, a custom scheme
/// (`callbackURLScheme`), registered in BB's portal as a second return URL. The backend is told which kind the
/// device catches so the session's `returnUrl` matches it.
public enum ConnectCallback: Sendable, Hashable {
    /// `ASWebAuthenticationSession.Callback.https(host:path:)`.
    case https(host: String, path: String)
    /// `callbackURLScheme`.
    case customScheme(String)

    /// The kind sent to the backend.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A universal link.
        case https
        /// A custom URL scheme.
        case customScheme = "custom-scheme"
    }

    /// This callback's kind.
    public var kind: Kind {
        switch self {
        case .https: .https
        case .customScheme: .customScheme
        }
    }

    /// The callback this device can catch: the universal link when the OS supports https callbacks (iOS 17.4+),
    /// the custom scheme otherwise.
    public static func supported(
        https: (host: String, path: String), customScheme: String, deviceSupportsHTTPSCallback: Bool
    ) -> ConnectCallback {
        deviceSupportsHTTPSCallback ? .https(host: https.host, path: https.path) : .customScheme(customScheme)
    }
}
