import BatonApple
import BatonClient
import BatonCore
import SwiftUI

/// Everything Baton holds for one signed-in user: built at sign-in, dropped at sign-out.
///
/// One backend client with the user's token; the user's own stores (`BatonUserData`, so a restore never crosses
/// users); one coordinator per flow; and one `BatonLinkRouter` that hands every URL the OS delivers to its flow.
@MainActor
final class BatonSession {
    let userID: String
    let backend: URLSessionBackendClient
    let verification: VerificationCoordinator
    let connect: ConnectCoordinator
    private let userData: BatonUserData
    private let router: BatonLinkRouter
    private let genericReturn: GenericReturnParser?
    /// The coordinator of the Chia card on screen, if any.
    private var chia: ChiaHandoffCoordinator?

    private init(
        userID: String, backend: URLSessionBackendClient, userData: BatonUserData, router: BatonLinkRouter,
        genericReturn: GenericReturnParser?, verification: VerificationCoordinator, connect: ConnectCoordinator
    ) {
        self.userID = userID
        self.backend = backend
        self.userData = userData
        self.router = router
        self.genericReturn = genericReturn
        self.verification = verification
        self.connect = connect
    }

    /// Signs `userID` in against the sandbox (with its dev sign-in secret) and builds the user's flows.
    static func signIn(userID: String, devSecret: String) async throws -> BatonSession {
        let token = try await SandboxSignIn.token(for: userID, devSecret: devSecret)
        let backend = URLSessionBackendClient(
            baseURL: SampleConfiguration.backend, tokenProvider: { token }, urls: SampleConfiguration.urls)
        let applicationSupport = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        let userData = BatonUserData(
            directory: applicationSupport.appendingPathComponent("Baton"), userID: userID,
            journeyWebData: WebKitJourneyDataEraser())
        let bankConnect = try ConnectReturnParser(registered: SampleConfiguration.bankConnectReturnURLs)
        let verificationReturns = try VerificationReturnParser(registered: SampleConfiguration.verificationReturnURLs)
        let genericReturn = try SampleConfiguration.chiaGenericReturnHost.map { host in
            try GenericReturnParser(registeredHost: host)
        }
        let router = try BatonLinkRouter(
            bankConnect: bankConnect.registeredReturnURLs, verification: verificationReturns.registeredReturnURLs,
            genericReturn: genericReturn)
        let verification = VerificationCoordinator(
            workflow: SampleConfiguration.workflow, returnParser: verificationReturns, backend: backend,
            presenter: CameraWebViewPresenter(presenting: { Windows.topViewController() }),
            urls: SampleConfiguration.urls)
        let connect = ConnectCoordinator(
            callback: SampleConfiguration.bankConnectCallback, returnParser: bankConnect, backend: backend,
            presenter: AuthenticationSessionPresenter(anchor: { Windows.keyWindow() }),
            pendingSessionID: try? await userData.pendingSession.load(), sessionStore: userData.pendingSession)
        return BatonSession(
            userID: userID, backend: backend, userData: userData, router: router, genericReturn: genericReturn,
            verification: verification, connect: connect)
    }

    /// The coordinator for the Chia card `card`, now the one on screen.
    func chia(for card: CatalogCard) -> ChiaHandoffCoordinator {
        let coordinator = ChiaHandoffCoordinator(
            catalogItemID: card.id, genericReturn: genericReturn, backend: backend, store: userData.pendingAttempts,
            presenter: ExternalBrowserPresenter())
        chia = coordinator
        return coordinator
    }

    /// Hands `url`, exactly as the OS delivered it, to the flow it belongs to; returns the route.
    @discardableResult
    func deliver(_ url: URL) async -> BatonLinkRouter.Route {
        await router.deliver(
            url.absoluteString, to: BatonLinkRouter.Flows(bankConnect: connect, verification: verification, chia: chia))
    }

    /// Stops every flow, then forgets what Baton kept for this user: pending share attempts, the pending BB session,
    /// and the camera web view's cookies and storage.
    func signOut() async throws {
        await chia?.stop()
        await connect.stop()
        await verification.stop()
        try await userData.signOut()
    }
}

/// The windows the presenters show over.
@MainActor
enum Windows {
    /// The key window of the foreground scene: the anchor for `ASWebAuthenticationSession`.
    static func keyWindow() -> UIWindow {
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        // A detached `UIWindow()` cannot show the sheet: the flow then ends with `.failed` and still asks the backend.
        return scenes.flatMap(\.windows).first(where: \.isKeyWindow) ?? UIWindow()
    }

    /// The controller the camera web view is presented over.
    static func topViewController() -> UIViewController? {
        var top = keyWindow().rootViewController
        while let next = top?.presentedViewController { top = next }
        return top
    }
}
