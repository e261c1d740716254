// Stub of UIKit (iOS 18 SDK declarations) for scripts/typecheck-apple; see Stubs/Apple/README.md. Never shipped.
@_exported import Foundation

#if canImport(FoundationNetworking)
// On Apple platforms Foundation itself declares URLRequest; on Linux it lives in FoundationNetworking.
@_exported import FoundationNetworking
#endif

@available(iOS 2.0, *)
@MainActor open class UIResponder: NSObject {
    public override init() { fatalError() }
}

@available(iOS 2.0, *)
@MainActor open class UIView: UIResponder {
    public init(frame: CGRect) { fatalError() }
    public override convenience init() { fatalError() }
    open var window: UIWindow? { fatalError() }
}

@available(iOS 13.0, *)
@MainActor open class UIScene: UIResponder {
    @MainActor open class ConnectionOptions: NSObject {
        open var urlContexts: Set<UIOpenURLContext> { fatalError() }
        open var userActivities: Set<NSUserActivity> { fatalError() }
    }
}

@available(iOS 13.0, *)
@MainActor open class UISceneSession: NSObject {}

@available(iOS 13.0, *)
@MainActor open class UIOpenURLContext: NSObject {
    open var url: URL { fatalError() }
}

#if !canImport(Darwin)
// On Apple platforms Foundation declares these; Linux's Foundation does not have them.
@available(iOS 8.0, *)
open class NSUserActivity: NSObject {
    public init(activityType: String) { fatalError() }
    open var activityType: String { fatalError() }
    open var webpageURL: URL?
}

// swift-format-ignore: AlwaysUseLowerCamelCase
@available(iOS 8.0, *)
public let NSUserActivityTypeBrowsingWeb: String = "NSUserActivityTypeBrowsingWeb"
#endif

// Optional Objective-C requirements the sample app implements have no default, so a drifting signature fails.
@available(iOS 13.0, *)
@MainActor public protocol UISceneDelegate: NSObjectProtocol {
    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions)
    // swift-format-ignore: AlwaysUseLowerCamelCase
    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>)
    func scene(_ scene: UIScene, continue userActivity: NSUserActivity)
}

@available(iOS 13.0, *)
@MainActor public protocol UIWindowSceneDelegate: UISceneDelegate {
    var window: UIWindow? { get set }
}

@available(iOS 2.0, *)
@MainActor public protocol UIApplicationDelegate: NSObjectProtocol {}

@available(iOS 2.0, *)
extension UIApplicationDelegate {
    @MainActor public static func main() { fatalError() }
}

@available(iOS 13.0, *)
@MainActor open class UIWindowScene: UIScene {
    open var windows: [UIWindow] { fatalError() }
}

@available(iOS 2.0, *)
@MainActor open class UIWindow: UIView {
    public override init(frame: CGRect) { fatalError() }
    @available(iOS 13.0, *)
    public init(windowScene: UIWindowScene) { fatalError() }
    open var isKeyWindow: Bool { fatalError() }
    open var rootViewController: UIViewController?
    open func makeKeyAndVisible() { fatalError() }
}

@available(iOS 2.0, *)
@MainActor open class UIViewController: UIResponder {
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    public override convenience init() { fatalError() }
    open var view: UIView!
    open var navigationItem: UINavigationItem { fatalError() }
    open var presentedViewController: UIViewController? { fatalError() }
    open var presentingViewController: UIViewController? { fatalError() }
    @available(iOS 5.0, *)
    open var isBeingPresented: Bool { fatalError() }
    @available(iOS 5.0, *)
    open var isBeingDismissed: Bool { fatalError() }
    @available(iOS 13.0, *)
    open var isModalInPresentation: Bool
    @available(iOS 5.0, *)
    open func present(
        _ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil
    ) { fatalError() }
    @available(iOS 5.0, *)
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) { fatalError() }
    open func viewDidDisappear(_ animated: Bool) { fatalError() }
}

@available(iOS 2.0, *)
@MainActor open class UINavigationController: UIViewController {
    public init(rootViewController: UIViewController) { fatalError() }
    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { fatalError() }
    public required init?(coder aDecoder: NSCoder) { fatalError() }
    open var viewControllers: [UIViewController]
}

@available(iOS 2.0, *)
@MainActor open class UINavigationItem: NSObject {
    open var leftBarButtonItem: UIBarButtonItem?
    open var rightBarButtonItem: UIBarButtonItem?
}

@available(iOS 2.0, *)
@MainActor open class UIBarItem: NSObject {}

@available(iOS 2.0, *)
@MainActor open class UIBarButtonItem: UIBarItem {
    public enum SystemItem: Int, Sendable {
        case done = 0, cancel, edit, save, add, flexibleSpace, fixedSpace, compose, reply, action, organize,
            bookmarks, search, refresh, stop, camera, trash, play, pause, rewind, fastForward, undo, redo
        @available(iOS 13.0, *) case close = 24
    }
    @available(iOS 14.0, *)
    public convenience init(systemItem: UIBarButtonItem.SystemItem, primaryAction: UIAction? = nil, menu: UIMenu? = nil)
    { fatalError() }
}

@available(iOS 13.0, *)
@MainActor open class UIMenuElement: NSObject {}

@available(iOS 13.0, *)
@MainActor open class UIMenu: UIMenuElement {}

@available(iOS 13.0, *)
@MainActor open class UIImage: NSObject {}

@available(iOS 13.0, *)
public typealias UIActionHandler = (UIAction) -> Void

@available(iOS 13.0, *)
@MainActor open class UIAction: UIMenuElement {
    // Apple's initialiser also takes `identifier`, `discoverabilityTitle`, `attributes` and `state`, all defaulted.
    public convenience init(title: String = "", image: UIImage? = nil, handler: @escaping UIActionHandler) {
        fatalError()
    }
}

@available(iOS 2.0, *)
@MainActor open class UIApplication: UIResponder {
    public struct OpenExternalURLOptionsKey: Hashable, Equatable, RawRepresentable, Sendable {
        public init(rawValue: String) { fatalError() }
        public var rawValue: String { fatalError() }
    }
    open class var shared: UIApplication { fatalError() }
    @available(iOS 13.0, *)
    open var connectedScenes: Set<UIScene> { fatalError() }
    @available(iOS 10.0, *)
    open func open(
        _ url: URL, options: [UIApplication.OpenExternalURLOptionsKey: Any] = [:],
        completionHandler completion: (@MainActor @Sendable (Bool) -> Void)? = nil
    ) { fatalError() }
    @available(iOS 10.0, *)
    open func open(_ url: URL, options: [UIApplication.OpenExternalURLOptionsKey: Any] = [:]) async -> Bool {
        fatalError()
    }
}
