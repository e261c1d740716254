// Must be rejected: `scene(_:openURLContexts:)` takes a `Set<UIOpenURLContext>`; with an array, UIKit would never call
// the method, and a custom-scheme link delivered while the app runs would be lost. The stub's requirement has no
// default, so the class no longer conforms (examples/ios-app and docs/ios.md implement these methods).
#if BATON_APPLE_STUBS
import UIKit

final class DriftingSceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?
    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {}
    func scene(_ scene: UIScene, openURLContexts urlContexts: [UIOpenURLContext]) {}
    func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {}
}
#endif
