// BatonApple: the iOS presenters and SwiftUI reference views. Every decision is made in BatonClient (the flow
// machines, `JourneyWebPolicy`, `ConnectCallback.supported`, `PresentationSlot`, `CatalogRenderPlan`); each file here
// maps one decision to one Apple call.
//
// The guard is `os(iOS) || os(visionOS)`, the platforms that have all of UIKit, WebKit's `WKUIDelegate` media-capture
// API and `ASWebAuthenticationSession`; `canImport` would also pass on tvOS and watchOS, where they are unavailable.
// Elsewhere the module is empty. `BATON_APPLE_STUBS` is set only by `scripts/typecheck-apple`, which type-checks these
// files on Linux against stub UIKit, WebKit, AuthenticationServices and SwiftUI modules (Stubs/Apple): a Linux
// compiler cannot target iOS (no iOS SDK or standard library), so a compile-time condition takes these branches.
