#if os(iOS) || os(visionOS) || BATON_APPLE_STUBS
import BatonClient
import Foundation
import WebKit

/// Removes every kind of website data — cookies, local and session storage, IndexedDB, caches, service workers —
/// from the data store the Privue camera web view uses (``CameraWebViewPresenter``'s persistent default store), so
/// that after sign-out the next user's verification does not open still signed in as the last one (seed 001: a new
/// journey for a different user).
///
/// That store is `WKWebsiteDataStore.default()`, shared by every `WKWebView` in the app that does not set a store of
/// its own: erasing it signs those out of their sites too. It cannot reach Safari or an `ASWebAuthenticationSession`
/// sheet that shares Safari's cookies (see ``AuthenticationSessionPresenter``).
public struct WebKitJourneyDataEraser: JourneyWebDataEraser {
    /// Creates the eraser.
    public init() {}

    /// Removes all website data of every type, whenever it was written; returns once WebKit reports it removed.
    @MainActor
    public func eraseJourneyWebData() async {
        await CameraWebViewPresenter.journeyDataStore().removeData(
            ofTypes: WKWebsiteDataStore.allWebsiteDataTypes(), modifiedSince: .distantPast)
    }
}
#endif
