#if canImport(UIKit) && canImport(AuthenticationServices)
import AuthenticationServices
import BatonClient
import BatonCore
import UIKit

extension ConnectCallback {
    /// The callback this device catches: `.https(host:path:)` on iOS 17.4+, the custom scheme below (seed 002).
    public static func forThisDevice(https: (host: String, path: String), customScheme: String) -> ConnectCallback {
        let supportsHTTPS: Bool
        if #available(iOS 17.4, *) { supportsHTTPS = true } else { supportsHTTPS = false }
        return supported(https: https, customScheme: customScheme, deviceSupportsHTTPSCallback: supportsHTTPS)
    }
}

/// Opens a BB hosted connect URL in `ASWebAuthenticationSession` (seed 002), catching the callback the machine
/// chose; a cancelled or failed sheet is ``BrowserCompletion/closedWithoutReturn``.
@MainActor
public final class AuthenticationSessionPresenter: NSObject, ASWebAuthenticationPresentationContextProviding {
    private let anchor: @MainActor () -> ASPresentationAnchor
    private var session: ASWebAuthenticationSession?

    /// A presenter showing the sheet over `anchor()` (the presenting scene's key window).
    public init(anchor: @escaping @MainActor () -> ASPresentationAnchor) {
        self.anchor = anchor
    }

    /// Presents `url` catching `callback`; returns the return link as the OS delivered it, or a close.
    public func present(_ url: SensitiveURL, callback: ConnectCallback) async -> BrowserCompletion {
        guard session == nil, let target = exactURL(url.revealForPresentation()) else { return .failedToOpen }
        return await withCheckedContinuation { continuation in
            let completion: ASWebAuthenticationSession.CompletionHandler = { returned, _ in
                // `returned` is nil when the user closed the sheet (ASWebAuthenticationSessionError.canceledLogin)
                // or the session failed: both are "closed without a return", and the backend is still asked.
                Task { @MainActor in self.session = nil }
                continuation.resume(returning: returned.map { .returned($0.absoluteString) } ?? .closedWithoutReturn)
            }
            let session: ASWebAuthenticationSession
            switch callback {
            case .https(let host, let path):
                guard #available(iOS 17.4, *) else {
                    continuation.resume(returning: .failedToOpen)
                    return
                }
                session = ASWebAuthenticationSession(
                    url: target, callback: .https(host: host, path: path), completionHandler: completion)
            case .customScheme(let scheme):
                session = ASWebAuthenticationSession(
                    url: target, callbackURLScheme: scheme, completionHandler: completion)
            }
            session.presentationContextProvider = self
            self.session = session
            if !session.start() {
                self.session = nil
                continuation.resume(returning: .failedToOpen)
            }
        }
    }

    /// The window the sheet is shown over.
    public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() }
    }
}

extension AuthenticationSessionPresenter: BrowserPresenter {
    /// Presents `url` when `style` is an authentication session; any other style is refused.
    public nonisolated func present(_ url: SensitiveURL, style: BrowserStyle) async -> BrowserCompletion {
        guard case .authenticationSession(let callback) = style else { return .failedToOpen }
        return await present(url, callback: callback)
    }
}
#endif
