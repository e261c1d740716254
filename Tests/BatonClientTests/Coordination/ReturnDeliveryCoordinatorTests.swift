import BatonCore
import BatonTestSupport
import Foundation
import Testing

@testable import BatonClient

/// Deliveries that used to strand a flow: a refused link from the browser, and a return that launches the app cold.
@Suite(.timeLimit(.minutes(1))) struct ReturnDeliveryCoordinatorTests {
    let backend = ScriptedBackend()
    let presenter = RecordingPresenter()
    let clock = ManualClock(Fixtures.t0)
    let policy = PollingPolicy(interval: 2, timeout: 10)
    static let session = ConnectSession(
        sessionID: "ses_1", hostedURL: SensitiveURL("https://bb.example/c/x")!, callbackKind: .https)

    func connect(pendingSessionID: String? = nil, store: (any PendingSessionStore)? = nil) -> ConnectCoordinator {
        ConnectCoordinator(
            callback: Fixtures.httpsCallback, returnParser: Fixtures.connectParser, polling: policy, backend: backend,
            presenter: presenter, clock: clock, pendingSessionID: pendingSessionID, sessionStore: store)
    }

    @Test func aRefusedLinkFromTheSheetEndsTheBrowserPhaseAndAsksAboutTheBackendsSession() async {
        await backend.script {
            $0.connectAnswers = [.success(Self.session)]
            $0.connectStateAnswers = [.success(ConnectSessionState(sessionID: "ses_1", status: .ok))]
        }
        await presenter.script([.returned("https://app.example.com/bb-callback?sessionId=ses_9&resultCode=Done")])
        let coordinator = connect()
        await coordinator.connectTapped()
        await coordinator.whenIdle()
        #expect(await coordinator.screen == .connected)
        #expect(await backend.calls == [.createConnectSession(.https), .connectSession(id: "ses_1")])
    }

    @Test func theSessionIDIsKeptWhileTheSheetIsOpenAndAColdLaunchReturnConfirmsIt() async throws {
        let store = InMemoryPendingSessionStore()
        await backend.script {
            $0.connectAnswers = [.success(Self.session)]
            $0.connectStateAnswers = [.success(ConnectSessionState(sessionID: "ses_1", status: .ok))]
        }
        await presenter.hold()
        let first = connect(store: store)
        await first.connectTapped()
        await presenter.waitForPresentations(1)
        // The sheet is open: the id is on disk (never the hosted URL), then the process dies.
        #expect(await store.load() == "ses_1")
        await first.stop()

        let second = connect(pendingSessionID: try await store.load(), store: store)
        #expect(await second.screen == .ready)
        await second.returnLink("https://app.example.com/bb-callback?sessionId=ses_1&resultCode=Ok")
        await second.whenIdle()
        #expect(await second.screen == .connected)
        #expect(await backend.calls == [.createConnectSession(.https), .connectSession(id: "ses_1")])
        #expect(await store.load() == nil, "forgotten once the backend settled it")
        await presenter.release()
    }

    @Test func aRefusedLinkFromTheCameraWebViewEndsTheJourneyAndPolls() async {
        await backend.script {
            $0.verificationHandoffAnswers = [
                .success(
                    VerificationHandoff(
                        url: SensitiveURL("https://verify.privue.example/k#ticket=t")!, expiresInSeconds: 120))
            ]
            $0.verificationAnswers = [
                .success(VerificationState(verificationID: "ver_1", status: VerificationStatus(rawValue: "submitted")))
            ]
        }
        await presenter.script([.returned("https://partner.example/kyc/done?status=approved")])
        let coordinator = VerificationCoordinator(
            workflow: "kyc", returnParser: Fixtures.verificationParser, polling: policy, backend: backend,
            presenter: presenter, clock: clock)
        await coordinator.verifyTapped()
        await coordinator.whenIdle()
        #expect(await coordinator.screen == .settled(VerificationStatus(rawValue: "submitted")))
        #expect(await backend.calls == [.createVerificationHandoff(workflow: "kyc"), .verification(workflow: "kyc")])
    }

    @Test func aForegroundDuringTheJourneyAsksTheBackendOnce() async {
        await backend.script {
            $0.verificationHandoffAnswers = [
                .success(
                    VerificationHandoff(
                        url: SensitiveURL("https://verify.privue.example/k#ticket=t")!, expiresInSeconds: 120))
            ]
            $0.verificationAnswers = [
                .success(VerificationState(verificationID: "ver_1", status: VerificationStatus(rawValue: "approved")))
            ]
        }
        await presenter.hold()
        let coordinator = VerificationCoordinator(
            workflow: "kyc", returnParser: Fixtures.verificationParser, polling: policy, backend: backend,
            presenter: presenter, clock: clock)
        await coordinator.verifyTapped()
        await presenter.waitForPresentations(1)
        await coordinator.backgrounded()
        await coordinator.foregrounded()
        await backend.waitForCalls(2)
        var screens = coordinator.screens.makeAsyncIterator()
        while let screen = await screens.next(), screen != .settled(VerificationStatus(rawValue: "approved")) {}
        #expect(await backend.calls == [.createVerificationHandoff(workflow: "kyc"), .verification(workflow: "kyc")])
        await presenter.release()
        await coordinator.whenIdle()
        #expect(await backend.calls.count == 2, "the web view closing after the settled answer asks nothing more")
    }
}
