#if canImport(UIKit) && canImport(WebKit)
import BatonClient
import BatonCore
import UIKit
import WebKit

/// Opens a Privue handoff in one camera-capable `WKWebView` for the whole journey (seed 001 "What the in-app browser
/// must support"): inline media, no user action required for playback, the persistent default data store, the camera
/// granted only to the journey's origin, outbound navigation (the consent provider) and back allowed, and the return
/// link intercepted. Every decision comes from ``JourneyWebPolicy``.
@MainActor
public final class CameraWebViewPresenter: NSObject, WKNavigationDelegate, WKUIDelegate {
    private let presenting: @MainActor () -> UIViewController?
    private var continuation: CheckedContinuation<BrowserCompletion, Never>?
    private var policy: JourneyWebPolicy?
    private var container: UINavigationController?

    /// A presenter showing the web view modally over `presenting()`.
    public init(presenting: @escaping @MainActor () -> UIViewController?) {
        self.presenting = presenting
    }

    /// Loads `url` unchanged (fragment included) in a new web view; returns the intercepted return link, or a close.
    public func present(_ url: SensitiveURL, policy: JourneyWebPolicy) async -> BrowserCompletion {
        guard continuation == nil, let target = exactURL(url.revealForPresentation()), let presenter = presenting()
        else { return .failedToOpen }
        let configuration = WKWebViewConfiguration()
        configuration.allowsInlineMediaPlayback = true
        configuration.mediaTypesRequiringUserActionForPlayback = []
        configuration.websiteDataStore = .default()
        let webView = WKWebView(frame: .zero, configuration: configuration)
        webView.navigationDelegate = self
        webView.uiDelegate = self
        let page = UIViewController()
        page.view = webView
        page.navigationItem.leftBarButtonItem = UIBarButtonItem(
            systemItem: .close, primaryAction: UIAction { [weak self] _ in self?.finish(.closedWithoutReturn) })
        let container = UINavigationController(rootViewController: page)
        container.isModalInPresentation = true  // closing goes through the button, so it is always reported
        return await withCheckedContinuation { continuation in
            self.continuation = continuation
            self.policy = policy
            self.container = container
            presenter.present(container, animated: true)
            webView.load(URLRequest(url: target))
        }
    }

    private func finish(_ completion: BrowserCompletion) {
        guard let continuation else { return }
        self.continuation = nil
        policy = nil
        container?.dismiss(animated: true)
        container = nil
        continuation.resume(returning: completion)
    }

    public func webView(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    ) {
        guard let policy, let url = navigationAction.request.url?.absoluteString else {
            return decisionHandler(.cancel)
        }
        switch policy.decide(navigationTo: url) {
        case .allow: decisionHandler(.allow)
        case .cancel: decisionHandler(.cancel)
        case .interceptReturn(let link):
            decisionHandler(.cancel)
            finish(.returned(link))
        }
    }

    public func webView(
        _ webView: WKWebView, requestMediaCapturePermissionFor origin: WKSecurityOrigin,
        initiatedByFrame frame: WKFrameInfo, type: WKMediaCaptureType,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void
    ) {
        let port = origin.port == 0 ? nil : origin.port
        let granted = policy?.grantsCamera(scheme: origin.protocol, host: origin.host, port: port) ?? false
        decisionHandler(granted && type != .microphone ? .grant : .deny)
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
