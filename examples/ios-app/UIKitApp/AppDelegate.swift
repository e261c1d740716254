import UIKit

/// The UIKit variant's application delegate: the scene manifest in Info.plist names `SceneDelegate`.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {}
