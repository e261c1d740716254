import SwiftUI
import UIKit

/// The UIKit variant of the link handling: a scene-based app receives URLs in three places, and each goes to the
/// same inbox, then through `BatonLinkRouter` to its flow.
///
/// - a cold launch by a link: `scene(_:willConnectTo:options:)`, in `connectionOptions.urlContexts` (custom scheme)
///   or `connectionOptions.userActivities` (universal link); neither of the two methods below is called for it;
/// - a custom-scheme URL while running: `scene(_:openURLContexts:)`;
/// - a universal link while running: `scene(_:continue:)`, an `NSUserActivityTypeBrowsingWeb` activity.
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?
    private let inbox = LinkInbox()

    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {
        guard let windowScene = scene as? UIWindowScene else { return }
        let window = UIWindow(windowScene: windowScene)
        window.rootViewController = UIHostingController(rootView: RootView(inbox: inbox))
        self.window = window
        window.makeKeyAndVisible()
        connectionOptions.urlContexts.forEach { inbox.receive($0.url) }
        connectionOptions.userActivities.forEach(receive)
    }

    func scene(_ scene: UIScene, openURLContexts urlContexts: Set<UIOpenURLContext>) {
        urlContexts.forEach { inbox.receive($0.url) }
    }

    func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {
        receive(userActivity)
    }

    private func receive(_ activity: NSUserActivity) {
        guard activity.activityType == NSUserActivityTypeBrowsingWeb, let url = activity.webpageURL else { return }
        inbox.receive(url)
    }
}
