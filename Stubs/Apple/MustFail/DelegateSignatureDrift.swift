// Must be rejected: the iOS 15-17 form of the media-capture delegate method (a decision handler that is neither
// @MainActor nor @Sendable) no longer satisfies WKUIDelegate in the iOS 18 SDK.
#if BATON_APPLE_STUBS
import UIKit
import WebKit

@MainActor
final class DriftingDelegate: NSObject, WKUIDelegate {
    func webView(
        _ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration,
        for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures
    ) -> WKWebView? { nil }

    func webView(
        _ webView: WKWebView, requestMediaCapturePermissionFor origin: WKSecurityOrigin,
        initiatedByFrame frame: WKFrameInfo, type: WKMediaCaptureType,
        decisionHandler: @escaping (WKPermissionDecision) -> Void
    ) { decisionHandler(.deny) }
}
#endif
