import BatonCore
import BatonTestSupport
import Foundation
import Testing

@testable import BatonClient

/// A session error that is not the user's cancel is a failure, not "closed by the user", in the
/// completion and in telemetry; a cancelled presentation asks nothing.
@Suite(.timeLimit(.minutes(1))) struct BrowserCompletionTests {
    @Test(arguments: [
        (
            String?.some("https://app.example.com/bb-callback?sessionId=s"),
            BrowserCompletion.AuthenticationSessionError?.none,
            BrowserCompletion.returned("https://app.example.com/bb-callback?sessionId=s")
        ),
        ("acmewallet://bb-callback?sessionId=s", .other, .returned("acmewallet://bb-callback?sessionId=s")),
        (nil, .canceledLogin, .closedWithoutReturn),
        (nil, nil, .closedWithoutReturn),
        (nil, .other, .failed),
    ])
    func authenticationSessionEnd(
        url: String?, error: BrowserCompletion.AuthenticationSessionError?, completion: BrowserCompletion
    ) {
        #expect(BrowserCompletion.authenticationSessionEnded(callbackURL: url, error: error) == completion)
    }

    @Test(arguments: [BrowserCompletion.failed, .closedWithoutReturn])
    func aFailedSheetIsRecordedAsAFailureAndStillAsksTheBackend(completion: BrowserCompletion) async {
        let backend = ScriptedBackend()
        let presenter = RecordingPresenter()
        let telemetry = RecordingTelemetry()
        await backend.script {
            $0.connectAnswers = [
                .success(
                    ConnectSession(
                        sessionID: "ses_1", hostedURL: SensitiveURL("https://bb.example/c/x")!, callbackKind: .https))
            ]
            $0.connectStateAnswers = [.success(ConnectSessionState(sessionID: "ses_1", status: .cancelled))]
        }
        await presenter.script([completion])
        let coordinator = ConnectCoordinator(
            callback: Fixtures.httpsCallback, returnParser: Fixtures.connectParser, backend: backend,
            presenter: presenter, clock: ManualClock(Fixtures.t0), telemetry: telemetry)
        await coordinator.connectTapped()
        await coordinator.whenIdle()
        await coordinator.stop()
        let events = await telemetry.drain()
        #expect(await backend.calls == [.createConnectSession(.https), .connectSession(id: "ses_1")])
        #expect(events.contains(.browserFailed(.connect, .authenticationSession)) == (completion == .failed))
        #expect(events.contains(.browserClosedWithoutReturn(.connect)))
    }

    @Test func aWebViewDismissedByAnythingElseIsAFailureAndStillAsksTheBackend() async {
        let backend = ScriptedBackend()
        let presenter = RecordingPresenter()
        let telemetry = RecordingTelemetry()
        await backend.script {
            $0.verificationHandoffAnswers = [
                .success(
                    VerificationHandoff(
                        url: SensitiveURL("https://verify.privue.example/acme/kyc#ticket=t")!, expiresInSeconds: 120))
            ]
            $0.verificationAnswers = [
                .success(VerificationState(verificationID: "v1", status: VerificationStatus(rawValue: "approved")))
            ]
        }
        await presenter.script([.failed])
        let coordinator = VerificationCoordinator(
            workflow: "kyc", returnParser: Fixtures.verificationParser, backend: backend, presenter: presenter,
            clock: ManualClock(Fixtures.t0), telemetry: telemetry)
        await coordinator.verifyTapped()
        await coordinator.whenIdle()
        await coordinator.stop()
        let events = await telemetry.drain()
        #expect(await backend.calls == [.createVerificationHandoff(workflow: "kyc"), .verification(workflow: "kyc")])
        #expect(events.contains(.browserFailed(.verification, .cameraWebView)))
        #expect(events.contains(.browserClosedWithoutReturn(.verification)))
    }

    @Test func aCancelledWebViewAsksNothing() async {
        let backend = ScriptedBackend()
        let presenter = RecordingPresenter()
        await backend.script {
            $0.verificationHandoffAnswers = [
                .success(
                    VerificationHandoff(
                        url: SensitiveURL("https://verify.privue.example/acme/kyc#ticket=t")!, expiresInSeconds: 120))
            ]
        }
        await presenter.script([.cancelled])
        let coordinator = VerificationCoordinator(
            workflow: "kyc", returnParser: Fixtures.verificationParser, backend: backend, presenter: presenter,
            clock: ManualClock(Fixtures.t0))
        await coordinator.verifyTapped()
        await coordinator.whenIdle()
        #expect(await backend.calls == [.createVerificationHandoff(workflow: "kyc")])
    }
}
