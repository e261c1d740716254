// Stand-ins for the partner app's own code that docs/ios.md's Swift blocks call: its signed-in user, its analytics,
// its navigation. scripts/typecheck-apple compiles them with each block; never shipped, nothing here runs.
import BatonClient
import BatonCore
import Foundation

/// The app's signed-in user: an id and the app token for the partner backend (from the Keychain, say).
struct SignedInUser: Sendable {
    let id: String
    func appToken() async -> Secret? { fatalError("the app's own sign-in") }
}

/// The app's analytics, receiving Baton's `TelemetryEvent`s (no URL can reach them).
struct MyAnalyticsSink: TelemetrySink {
    func record(_ event: TelemetryEvent) { fatalError("the app's own analytics") }
}

/// The app's navigation to its marketplace home (Chia's generic return).
@MainActor func showMarketplaceHome() { fatalError("the app's own navigation") }
