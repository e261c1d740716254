#if os(iOS) || os(visionOS) || BATON_APPLE_STUBS
import BatonClient
import BatonCore
import UIKit
import WebKit

/// Opens a Privue handoff in one camera-capable `WKWebView` for the whole journey (seed 001 "What the in-app browser
/// must support"): inline media, no user action required for playback, the persistent default data store, outbound
/// navigation (the consent provider) and back allowed, and the return link intercepted.
///
/// Every decision comes from ``JourneyWebPolicy`` (navigation, and media capture: the camera alone, for the journey's
/// origin alone). A ``PresentationSlot`` ends the presentation exactly once: the intercepted return, the close
/// button (``BrowserCompletion/closedWithoutReturn``), a presentation UIKit refused (``BrowserCompletion/failedToOpen``),
/// the container dismissed by anything else (``BrowserCompletion/failed``), or the calling task's cancellation
/// (the web view is dismissed).
@MainActor
public final class CameraWebViewPresenter: NSObject, WKNavigationDelegate, WKUIDelegate {
    private let presenting: @MainActor () -> UIViewController?
    private let slot = PresentationSlot()
    private var journey: (ticket: PresentationSlot.Ticket, policy: JourneyWebPolicy)?
    private var container: JourneyContainer?

    /// A presenter showing the web view modally over `presenting()`.
    public init(presenting: @escaping @MainActor () -> UIViewController?) {
        self.presenting = presenting
    }

    /// Loads `url` unchanged (fragment included) in a new web view; returns the intercepted return link, or how the
    /// web view ended.
    public func present(_ url: SensitiveURL, policy: JourneyWebPolicy) async -> BrowserCompletion {
        guard let target = exactURL(url.revealForPresentation()), let presenter = presenting() else {
            return .failedToOpen
        }
        return await slot.present { ticket in
            let container = JourneyContainer(webView: makeWebView())
            container.page.navigationItem.leftBarButtonItem = UIBarButtonItem(
                systemItem: .close,
                primaryAction: UIAction { [slot] _ in slot.finish(ticket, with: .closedWithoutReturn) })
            container.onDisappear = { [slot] in slot.finish(ticket, with: .failed) }
            journey = (ticket, policy)
            self.container = container
            presenter.present(container, animated: true)
            // UIKit refuses a presentation (the presenter already presents, is mid-transition, or is not in a
            // window) by logging, not by failing: an accepted one has a presenting controller at once.
            guard container.presentingViewController != nil else { return slot.finish(ticket, with: .failedToOpen) }
            container.webView.load(URLRequest(url: target))
        } tearDown: { [weak self] in
            self?.tearDown()
        }
    }

    /// The data store of every journey web view: the persistent default store (seed 001), the one
    /// ``WebKitJourneyDataEraser`` clears at sign-out.
    static func journeyDataStore() -> WKWebsiteDataStore { .default() }

    private func makeWebView() -> WKWebView {
        let configuration = WKWebViewConfiguration()
        configuration.allowsInlineMediaPlayback = true
        configuration.mediaTypesRequiringUserActionForPlayback = []
        configuration.websiteDataStore = Self.journeyDataStore()
        let webView = WKWebView(frame: .zero, configuration: configuration)
        webView.navigationDelegate = self
        webView.uiDelegate = self
        return webView
    }

    private func tearDown() {
        journey = nil
        guard let container else { return }
        self.container = nil
        container.onDisappear = nil
        container.webView.stopLoading()
        if container.presentingViewController != nil { container.dismiss(animated: true) }
    }

    /// Asks ``JourneyWebPolicy/decide(navigationTo:)``; an intercepted return ends the journey with that link.
    public func webView(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    ) {
        guard let journey, let url = navigationAction.request.url?.absoluteString else {
            return decisionHandler(.cancel)
        }
        switch journey.policy.decide(navigationTo: url) {
        case .allow: decisionHandler(.allow)
        case .cancel: decisionHandler(.cancel)
        case .interceptReturn(let link):
            decisionHandler(.cancel)
            slot.finish(journey.ticket, with: .returned(link))
        }
    }

    /// Asks ``JourneyWebPolicy/decide(mediaCapture:scheme:host:port:)``: the camera alone, for the journey's origin.
    public func webView(
        _ webView: WKWebView, requestMediaCapturePermissionFor origin: WKSecurityOrigin,
        initiatedByFrame frame: WKFrameInfo, type: WKMediaCaptureType,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void
    ) {
        let capture: JourneyWebPolicy.MediaCapture
        switch type {
        case .camera: capture = .camera
        case .microphone: capture = .microphone
        case .cameraAndMicrophone: capture = .cameraAndMicrophone
        @unknown default: return decisionHandler(.deny)
        }
        let decision = journey?.policy.decide(
            mediaCapture: capture, scheme: origin.protocol, host: origin.host, port: origin.port)
        decisionHandler(decision == .grant ? .grant : .deny)
    }

    /// `target=_blank` and `window.open` stay in this one instance.
    public func webView(
        _ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration,
        for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures
    ) -> WKWebView? {
        if navigationAction.targetFrame == nil { webView.load(navigationAction.request) }
        return nil
    }
}

extension CameraWebViewPresenter: BrowserPresenter {
    /// Presents `url` when `style` is the camera web view; any other style is refused.
    public nonisolated func present(_ url: SensitiveURL, style: BrowserStyle) async -> BrowserCompletion {
        guard case .cameraWebView(let policy) = style else { return .failedToOpen }
        return await present(url, policy: policy)
    }
}
#endif
