#if os(iOS) || os(visionOS) || BATON_APPLE_STUBS
import UIKit
import WebKit

/// The navigation controller the web view is presented in; reports when it disappears for good.
@MainActor
final class JourneyContainer: UINavigationController {
    /// The page holding the web view.
    let page = UIViewController()
    /// The journey's web view.
    let webView: WKWebView
    /// Called when the container disappears other than under a controller it presented itself (a file picker).
    var onDisappear: (@MainActor () -> Void)?

    init(webView: WKWebView) {
        self.webView = webView
        super.init(nibName: nil, bundle: nil)
        page.view = webView
        viewControllers = [page]
        isModalInPresentation = true  // no swipe to dismiss: the user closes with the button, which is reported
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("not used") }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        if presentedViewController == nil { onDisappear?() }
    }
}
#endif
