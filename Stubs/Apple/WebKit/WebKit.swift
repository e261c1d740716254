// Stub of WebKit (iOS 18 SDK declarations) for scripts/typecheck-apple; see Stubs/Apple/README.md. Never shipped.
import Foundation
import UIKit

@available(iOS 8.0, *)
@MainActor open class WKWebsiteDataStore: NSObject {
    open class func `default`() -> WKWebsiteDataStore { fatalError() }
    open class func nonPersistent() -> WKWebsiteDataStore { fatalError() }
    @available(iOS 9.0, *)
    open class func allWebsiteDataTypes() -> Set<String> { fatalError() }
    @available(iOS 9.0, *)
    open func removeData(
        ofTypes dataTypes: Set<String>, modifiedSince date: Date,
        completionHandler: @escaping @MainActor @Sendable () -> Void
    ) { fatalError() }
    // The form Swift imports for the completion-handler method above.
    @available(iOS 9.0, *)
    open func removeData(ofTypes dataTypes: Set<String>, modifiedSince date: Date) async { fatalError() }
}

@available(iOS 10.0, *)
public struct WKAudiovisualMediaTypes: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static var audio: WKAudiovisualMediaTypes { fatalError() }
    public static var video: WKAudiovisualMediaTypes { fatalError() }
    public static var all: WKAudiovisualMediaTypes { fatalError() }
}

@available(iOS 8.0, *)
@MainActor open class WKWebViewConfiguration: NSObject {
    public override init() { fatalError() }
    open var websiteDataStore: WKWebsiteDataStore
    open var allowsInlineMediaPlayback: Bool
    @available(iOS 10.0, *)
    open var mediaTypesRequiringUserActionForPlayback: WKAudiovisualMediaTypes
}

@available(iOS 8.0, *)
@MainActor open class WKNavigation: NSObject {}

@available(iOS 8.0, *)
@MainActor open class WKFrameInfo: NSObject {
    open var isMainFrame: Bool { fatalError() }
    open var request: URLRequest { fatalError() }
}

@available(iOS 9.0, *)
@MainActor open class WKSecurityOrigin: NSObject {
    open var `protocol`: String { fatalError() }
    open var host: String { fatalError() }
    /// 0 when the origin uses its scheme's default port.
    open var port: Int { fatalError() }
}

@available(iOS 8.0, *)
@MainActor open class WKWindowFeatures: NSObject {}

@available(iOS 8.0, *)
@MainActor open class WKNavigationAction: NSObject {
    open var sourceFrame: WKFrameInfo { fatalError() }
    open var targetFrame: WKFrameInfo? { fatalError() }
    open var request: URLRequest { fatalError() }
}

@available(iOS 8.0, *)
public enum WKNavigationActionPolicy: Int, Sendable {
    case cancel = 0
    case allow = 1
    @available(iOS 14.5, *) case download = 2
}

@available(iOS 15.0, *)
public enum WKMediaCaptureType: Int, Sendable {
    case camera = 0
    case microphone = 1
    case cameraAndMicrophone = 2
}

@available(iOS 15.0, *)
public enum WKPermissionDecision: Int, Sendable {
    case prompt = 0
    case grant = 1
    case deny = 2
}

@available(iOS 8.0, *)
@MainActor open class WKWebView: UIView {
    public init(frame: CGRect, configuration: WKWebViewConfiguration) { fatalError() }
    weak open var navigationDelegate: (any WKNavigationDelegate)?
    weak open var uiDelegate: (any WKUIDelegate)?
    @discardableResult
    open func load(_ request: URLRequest) -> WKNavigation? { fatalError() }
    open func stopLoading() { fatalError() }
}

// Objective-C optional requirements. The ones BatonApple implements are declared here without a default, so an
// implementation whose signature drifts from Apple's fails to conform instead of silently becoming an overload (a
// defaulted requirement draws no "nearly matches" warning); the others keep a default standing in for "optional".

@available(iOS 8.0, *)
@MainActor public protocol WKNavigationDelegate: NSObjectProtocol {
    func webView(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void)
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!)
}

extension WKNavigationDelegate {
    public func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) { fatalError() }
}

@available(iOS 8.0, *)
@MainActor public protocol WKUIDelegate: NSObjectProtocol {
    func webView(
        _ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration,
        for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures
    ) -> WKWebView?
    @available(iOS 9.0, *)
    func webViewDidClose(_ webView: WKWebView)
    @available(iOS 15.0, *)
    func webView(
        _ webView: WKWebView, requestMediaCapturePermissionFor origin: WKSecurityOrigin,
        initiatedByFrame frame: WKFrameInfo, type: WKMediaCaptureType,
        decisionHandler: @escaping @MainActor @Sendable (WKPermissionDecision) -> Void)
}

extension WKUIDelegate {
    public func webViewDidClose(_ webView: WKWebView) { fatalError() }
}
