import BatonClient
import BatonCore
import BatonHTTP
import BatonHeadless
import Foundation

/// A browser in which the return's universal link (or app link) does not fire: the journey runs as in
/// ``HeadlessPresenter``, but where the headless component would hand the provider's redirect to the app, this browser
/// loads the https return URL itself, from the partner backend that owns the return host, as Safari or Chrome would
/// after a JavaScript redirect or an "open in browser" (issue 22). It then stays on the page it got, and nothing
/// reaches the app, until the flow is stopped.
///
/// Each landing visit is published on ``landings`` (`nil` when the journey ended without a redirect to load), so a
/// test can read the page and deliver its link to the app the way the OS would.
actor UnfiredReturnBrowser: BrowserPresenter {
    /// The page the browser showed at the return URL.
    struct Landing: Sendable {
        /// The provider's redirect, exactly as it came: the URL the browser loaded.
        let redirect: String
        let status: Int
        let headers: HTTPHeaders
        let html: String

        /// The href of the page's "Return to the app" link, exactly as rendered (HTML attribute text).
        var returnToTheAppLink: String? {
            let pattern = #"<a class="primary" href="([^"]*)">Return to the app</a>"#
            guard let expression = try? NSRegularExpression(pattern: pattern),
                let match = expression.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)),
                let range = Range(match.range(at: 1), in: html)
            else { return nil }
            return String(html[range])
        }

        /// The values of the redirect's query parameters (the session id, result code, verification id, status).
        var queryValues: [String] {
            (URLComponents(string: redirect)?.queryItems ?? []).compactMap(\.value).filter { !$0.isEmpty }
        }

        /// The values of the redirect's id parameters (`sessionId`, `connectionId`, `verification_id`).
        var queryIDs: [String] {
            (URLComponents(string: redirect)?.queryItems ?? []).filter { $0.name.lowercased().hasSuffix("id") }
                .compactMap(\.value).filter { !$0.isEmpty }
        }
    }

    private let journey: HeadlessPresenter
    private let transport: CurlTransport
    private let backendBase: String
    private let returnHosts: Set<String>
    private let landingContinuation: AsyncStream<Landing?>.Continuation
    /// Every landing visit, in order (`nil`: the journey ended without a redirect to load).
    nonisolated let landings: AsyncStream<Landing?>

    /// A browser running journeys with `journey`, whose requests to `returnHosts` reach the backend at
    /// `backendBase` (as DNS and the load balancer would route them).
    init(journey: HeadlessPresenter, stack: EndToEndStack, returnHosts: Set<String>) {
        self.journey = journey
        transport = stack.transport
        backendBase = stack.base
        self.returnHosts = returnHosts
        (landings, landingContinuation) = AsyncStream.makeStream()
    }

    /// The next landing visit.
    func nextLanding() async -> Landing? {
        for await landing in landings { return landing }
        return nil
    }

    func present(_ url: SensitiveURL, style: BrowserStyle) async -> BrowserCompletion {
        let completion = await journey.present(url, style: style)
        guard case .returned(let redirect) = completion else {
            landingContinuation.yield(nil)
            return completion
        }
        landingContinuation.yield(await load(redirect))
        // The browser stays on the landing page: no completion reaches the app until the flow stops.
        let (never, keepOpen) = AsyncStream<Never>.makeStream()
        for await _ in never {}  // ends when the presenting task is cancelled
        withExtendedLifetime(keepOpen) {}
        return .cancelled
    }

    /// `GET` of the https return URL, query included (a browser sends it; the page must not use it), on the
    /// backend with the URL's own `Host`; the fragment stays in the browser.
    private func load(_ redirect: String) async -> Landing? {
        guard let parts = RawURLComponents(redirect), parts.normalizedScheme == "https",
            returnHosts.contains(parts.normalizedHost)
        else { return nil }
        let target = backendBase + parts.effectivePath + (parts.query.map { "?" + $0 } ?? "")
        guard
            let response = try? await transport.send(
                OutboundRequest(url: target, headers: ["host": parts.normalizedHost, "accept": "text/html"]))
        else { return nil }
        return Landing(
            redirect: redirect, status: response.status, headers: response.headers,
            html: String(decoding: response.body, as: UTF8.self))
    }
}
