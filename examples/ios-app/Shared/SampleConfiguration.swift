import BatonCore
import Foundation

/// What the sample talks to: `baton serve --sandbox --port 8080` on the Mac running the Simulator, and the return
/// URLs that sandbox registers (Sources/BatonCLI/Serve/SandboxDevelopment.swift). A real app puts its own backend's
/// https origin, its own return URLs and `URLPolicy.production` here.
enum SampleConfiguration {
    /// The backend; the Simulator reaches the Mac's loopback as its own.
    static let backend = URL(string: "http://127.0.0.1:8080")!
    /// The sandbox serves plain http on loopback: accepted only under the development policy. Never ship it.
    static let urls = URLPolicy.development
    /// Privue's workflow.
    static let workflow = "merchant-onboarding"
    /// BB's return URLs: the universal link, the custom scheme, and the landing page's link on the open host.
    static let bankConnectReturnURLs = [
        "https://app.example.com/bb-callback", "acmewallet://bb-callback", "https://open.app.example.com/bb-callback",
    ]
    /// Privue's return URL and the landing page's link on the open host.
    static let verificationReturnURLs = ["https://app.example.com/kyc/done", "https://open.app.example.com/kyc/done"]
    /// The sandbox registers no Chia generic return.
    static let chiaGenericReturnHost: String? = nil
    /// The sheet catches `acmewallet://bb-callback` on every iOS version: `app.example.com` is not this app's
    /// associated domain, so the iOS 17.4 https callback cannot be caught here. A real app with its own domain uses
    /// `ConnectCallback.forThisDevice(https:customScheme:)`.
    static let bankConnectCallback = ConnectCallback.customScheme("acmewallet")
}
