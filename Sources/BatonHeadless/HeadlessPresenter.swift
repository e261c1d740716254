import BatonClient
import BatonCore
import Foundation

/// A ``BrowserPresenter`` with no screen, for end-to-end tests and `baton demo`: it really loads the hosted journey
/// from the provider sandbox, follows its redirects, does what the scripted user does there, and hands the return
/// link (or a close) back to the coordinator, recording every request it makes.
///
/// It keeps each browser style's rules: the external browser (Chia) loads the page once and reports
/// ``BrowserCompletion/handedToSystem`` — nothing ever comes back from it; the authentication session (BB) ends
/// only on a redirect its callback catches; the camera web view (Privue) loads the URL without its fragment, redeems
/// the `#ticket` exactly as the page's script does (falling back to the mobile-number form when the ticket is
/// expired or used), and ends on a navigation its ``JourneyWebPolicy`` intercepts. Each presentation is a fresh
/// browser instance (no cookies carried over).
///
/// ```swift
/// let presenter = HeadlessPresenter()
/// await presenter.script(.completeConnect(resultCode: "Ok"))
/// let coordinator = ConnectCoordinator(…, presenter: presenter)
/// await coordinator.connectTapped()
/// ```
///
/// Printable records (``requests``, ``presentations``) show URLs as scheme and host only.
public actor HeadlessPresenter: BrowserPresenter {
    /// One scripted journey: the outcome, and work to run before the page loads (tests move a clock there).
    struct Step {
        let outcome: HeadlessOutcome
        let beforeLoading: (@Sendable () async -> Void)?
    }

    private let transport: any BackendTransport
    let mobileNumber: String
    private var steps: [Step] = []

    /// Every request made, in order.
    public private(set) var requests: [HeadlessRequest] = []
    /// Every journey presented, in order.
    public private(set) var presentations: [HeadlessPresentation] = []

    /// A presenter loading pages through `transport`, which must not follow redirects itself.
    ///
    /// - Parameter mobileNumber: what the user types when Privue asks for their mobile number.
    public init(
        transport: any BackendTransport = NonRedirectingURLSessionTransport(), mobileNumber: String = "+15550100"
    ) {
        self.transport = transport
        self.mobileNumber = mobileNumber
    }

    /// Scripts the next journey that needs a user decision (BB, Privue): what the user does once the page is shown,
    /// and work to run just before the page loads. External-browser journeys take no step.
    public func script(_ outcome: HeadlessOutcome, beforeLoading: (@Sendable () async -> Void)? = nil) {
        steps.append(Step(outcome: outcome, beforeLoading: beforeLoading))
    }

    /// The requests made so far with `purpose`.
    public func requests(for purpose: HeadlessRequest.Purpose) -> [HeadlessRequest] {
        requests.filter { $0.purpose == purpose }
    }

    public func present(_ url: SensitiveURL, style: BrowserStyle) async -> BrowserCompletion {
        // Taken before any suspension, so two presentations never get the same step.
        let step: Step? = style == .externalBrowser || steps.isEmpty ? nil : steps.removeFirst()
        await step?.beforeLoading?()
        var browser = HeadlessBrowser(transport: transport) { request in await self.append(request) }
        let result: (firstPage: String?, signIn: HeadlessSignIn?, completion: BrowserCompletion)
        switch style {
        case .externalBrowser:
            result = await Self.openExternal(url, browser: &browser)
        case .authenticationSession(let callback):
            result = await Self.runAuthenticationSession(
                url, callback: callback, outcome: step?.outcome ?? .close, browser: &browser)
        case .cameraWebView(let policy):
            result = await runCameraWebView(url, policy: policy, outcome: step?.outcome ?? .close, browser: &browser)
        }
        presentations.append(
            HeadlessPresentation(
                browser: style.kind, url: url, firstPage: result.firstPage, signIn: result.signIn,
                completion: result.completion))
        return result.completion
    }

    private func append(_ request: HeadlessRequest) { requests.append(request) }

    /// Chia: the OS browser takes the URL and loads it; the app learns nothing more.
    private static func openExternal(
        _ url: SensitiveURL, browser: inout HeadlessBrowser
    ) async -> (String?, HeadlessSignIn?, BrowserCompletion) {
        guard let target = URL(string: url.revealForPresentation()) else { return (nil, nil, .failedToOpen) }
        let page = await browser.load("GET", target, purpose: .page) { _ in true }
        return (page?.marker, nil, .handedToSystem)
    }

    /// BB: load the hosted flow, end it as scripted through the control API, and catch the redirect the
    /// session's callback matches.
    private static func runAuthenticationSession(
        _ url: SensitiveURL, callback: ConnectCallback, outcome: HeadlessOutcome, browser: inout HeadlessBrowser
    ) async -> (String?, HeadlessSignIn?, BrowserCompletion) {
        let catches: @Sendable (String) -> Bool = { link in Self.callback(callback, catches: link) }
        guard let target = URL(string: url.revealForPresentation()) else { return (nil, nil, .failedToOpen) }
        guard let page = await browser.load("GET", target, purpose: .page, follow: { !catches($0) }) else {
            return (nil, nil, .closedWithoutReturn)
        }
        guard case .completeConnect(let resultCode, let error) = outcome,
            let id = HeadlessBrowser.firstMatch(#"action="([^"/]+)/complete""#, in: page.body),
            let control = URL(string: "/_sandbox/journeys/\(id)/complete", relativeTo: page.url)?.absoluteURL
        else { return (page.marker, nil, .closedWithoutReturn) }
        var body = JSONText()
        if let error { body.field("error", error) }
        body.field("resultCode", resultCode)
        let answer = await browser.send(
            "POST", control, purpose: .control, body: Data(body.finishBytes()), contentType: "application/json")
        guard let answer, answer.status == 200,
            let object = try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any],
            let redirect = object["redirectUrl"] as? String
        else { return (page.marker, nil, .closedWithoutReturn) }
        // The flow's 303 goes to `redirect`: the session catches it when it matches the callback.
        return (page.marker, nil, catches(redirect) ? .returned(redirect) : .closedWithoutReturn)
    }

    /// Whether an `ASWebAuthenticationSession` with `callback` ends on a navigation to `link`.
    static func callback(_ callback: ConnectCallback, catches link: String) -> Bool {
        guard let parts = RawURLComponents(link) else { return false }
        switch callback {
        case .https(let host, let path):
            return parts.normalizedScheme == "https" && parts.normalizedHost == host.lowercased()
                && parts.effectivePath == path
        case .customScheme(let scheme):
            return parts.normalizedScheme == scheme.lowercased()
        }
    }
}
