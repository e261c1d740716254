#if os(iOS) || os(visionOS) || BATON_APPLE_STUBS
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
/// chose.
///
/// The session's end is ``BrowserCompletion/authenticationSessionEnded(callbackURL:error:)``: the delivered link,
/// the user's close, or a failure (no or an invalid presentation anchor). A session that does not start is
/// ``BrowserCompletion/failedToOpen``; cancelling the calling task cancels the session. A ``PresentationSlot``
/// delivers exactly one of these, whichever comes first.
///
/// The sheet is ephemeral by default (`prefersEphemeralWebBrowserSession`, as AppAuth's and Auth0.swift's option of
/// the same meaning, which default to shared): iOS shows no "“App” Wants to Use “…” to Sign In" alert before a
/// bank connection that is not a sign-in to the app, and the sheet neither reads nor keeps Safari's cookies, so one
/// person's bank session in Safari never reaches another's connect on a shared device, and nothing the bank leaves
/// behind outlives the sheet (``JourneyWebDataEraser`` cannot reach Safari's cookies). The cost: the user signs in to
/// the bank every time, and a bank that remembers a trusted browser by cookie asks for its second factor again.
@MainActor
public final class AuthenticationSessionPresenter: NSObject, ASWebAuthenticationPresentationContextProviding {
    private let anchor: @MainActor () -> ASPresentationAnchor
    private let prefersEphemeralWebBrowserSession: Bool
    private let slot = PresentationSlot()
    private var session: ASWebAuthenticationSession?

    /// A presenter showing the sheet over `anchor()` (the presenting scene's key window).
    ///
    /// - Parameters:
    ///   - prefersEphemeralWebBrowserSession: `true` (the default): a private sheet, no alert, no cookies shared
    ///     with Safari in either direction. `false`: iOS asks "“App” Wants to Use “…” to Sign In" first, and the
    ///     sheet shares Safari's cookies, so a user already signed in to their bank in Safari may not need to sign in
    ///     again, and the bank's cookies stay in Safari after the connection.
    ///   - anchor: the window the sheet is shown over.
    public init(
        prefersEphemeralWebBrowserSession: Bool = true, anchor: @escaping @MainActor () -> ASPresentationAnchor
    ) {
        self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
        self.anchor = anchor
    }

    /// Presents `url` catching `callback`; returns the return link as the OS delivered it, or how the sheet ended.
    public func present(_ url: SensitiveURL, callback: ConnectCallback) async -> BrowserCompletion {
        guard let target = exactURL(url.revealForPresentation()) else { return .failedToOpen }
        return await slot.present { ticket in
            let completion = Self.completionHandler(slot: slot, ticket: ticket)
            let session: ASWebAuthenticationSession
            switch callback {
            case .https(let host, let path):
                guard #available(iOS 17.4, *) else { return slot.finish(ticket, with: .failedToOpen) }
                session = ASWebAuthenticationSession(
                    url: target, callback: .https(host: host, path: path), completionHandler: completion)
            case .customScheme(let scheme):
                session = ASWebAuthenticationSession(
                    url: target, callbackURLScheme: scheme, completionHandler: completion)
            }
            session.presentationContextProvider = self
            session.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
            self.session = session
            if !session.start() { slot.finish(ticket, with: .failedToOpen) }
        } tearDown: { [weak self] in
            self?.session?.cancel()
            self?.session = nil
        }
    }

    /// The session's completion handler: `@Sendable` and formed outside the main actor, because the system may call
    /// it on any thread (a closure formed in this main-actor class would be inferred main-actor, and Swift 6 would
    /// trap on that call). It only maps its arguments and hops to the main actor.
    private nonisolated static func completionHandler(
        slot: PresentationSlot, ticket: PresentationSlot.Ticket
    ) -> ASWebAuthenticationSession.CompletionHandler {
        { @Sendable returned, error in
            let completion = BrowserCompletion.authenticationSessionEnded(
                callbackURL: returned?.absoluteString, error: sessionError(error))
            Task { @MainActor in slot.finish(ticket, with: completion) }
        }
    }

    private nonisolated static func sessionError(_ error: (any Error)?) -> BrowserCompletion.AuthenticationSessionError?
    {
        guard let error else { return nil }
        return (error as? ASWebAuthenticationSessionError)?.code == .canceledLogin ? .canceledLogin : .other
    }

    /// The window the sheet is shown over.
    public func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        anchor()
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
