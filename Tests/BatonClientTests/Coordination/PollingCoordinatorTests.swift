import BatonCore
import BatonTestSupport
import Foundation
import Testing

@testable import BatonClient

/// The Privue and BB coordinators: presenter completions become events, polling runs on the injected clock.
@Suite(.timeLimit(.minutes(1))) struct PollingCoordinatorTests {
    let backend = ScriptedBackend()
    let presenter = RecordingPresenter()
    let clock = ManualClock(Fixtures.t0)
    let policy = PollingPolicy(interval: 2, timeout: 10)
    static let privueURL = "https://verify.privue.example/acme/kyc#ticket=2nR9v6QpKZ8mLxT4bYw1dJhSaEfG7uNc"

    @Test func verificationOpensTheHandoffUnchangedAndPollsUntilSettled() async {
        await backend.script {
            $0.verificationHandoffAnswers = [
                .success(VerificationHandoff(url: SensitiveURL(Self.privueURL)!, expiresInSeconds: 120))
            ]
            $0.verificationAnswers = [
                .success(
                    VerificationState(verificationID: "ver_1", status: VerificationStatus(rawValue: "in_progress"))),
                .success(VerificationState(verificationID: "ver_1", status: VerificationStatus(rawValue: "approved"))),
            ]
        }
        await presenter.script([.returned("https://partner.example/kyc/done?verification_id=ver_1&status=approved")])
        let coordinator = VerificationCoordinator(
            workflow: "kyc", returnParser: Fixtures.verificationParser, polling: policy, backend: backend,
            presenter: presenter, clock: clock)
        #expect(await backend.calls.isEmpty, "nothing requested in advance")

        await coordinator.verifyTapped()
        await coordinator.whenIdle()
        #expect(await coordinator.screen == .confirming(landingHint: "approved"))
        let presentations = await presenter.presentations
        #expect(presentations.map(\.url) == [Self.privueURL], "passed through unchanged, fragment included")
        guard case .cameraWebView = presentations.first?.style else {
            Issue.record("not the camera web view")
            return
        }

        await clock.waitForSleepers(2)  // the next poll and the deadline
        clock.advance(to: Fixtures.at(2))
        await backend.waitForCalls(3)
        await coordinator.whenIdle()
        #expect(await coordinator.screen == .settled(VerificationStatus(rawValue: "approved")))
        #expect(
            await backend.calls == [
                .createVerificationHandoff(workflow: "kyc"), .verification(workflow: "kyc"),
                .verification(workflow: "kyc"),
            ])
    }

    @Test func closedConnectSheetTakesTheCancelledPathAsksTheBackendAndNeverHangs() async {
        await backend.script {
            $0.connectAnswers = [
                .success(
                    ConnectSession(
                        sessionID: "ses_1", hostedURL: SensitiveURL("https://bb.example/c/x")!, callbackKind: .https))
            ]
            $0.connectStateAnswers = [.success(ConnectSessionState(sessionID: "ses_1", status: .pending))]
        }
        await presenter.script([.closedWithoutReturn])
        let coordinator = ConnectCoordinator(
            callback: Fixtures.httpsCallback, returnParser: Fixtures.connectParser, polling: policy, backend: backend,
            presenter: presenter, clock: clock)
        var screens = coordinator.screens.makeAsyncIterator()

        await coordinator.connectTapped()
        await coordinator.whenIdle()
        #expect(await coordinator.screen == .cancelled)
        #expect(await backend.calls == [.createConnectSession(.https), .connectSession(id: "ses_1")])
        #expect(
            await presenter.presentations == [
                .init(url: "https://bb.example/c/x", style: .authenticationSession(callback: Fixtures.httpsCallback))
            ])

        // The scripted backend fails every later poll (no answers left): polling must still end at the deadline.
        await clock.waitForSleepers(2)
        clock.advance(to: Fixtures.at(10))
        var seen: [ConnectScreen] = []
        while let screen = await screens.next() {
            seen.append(screen)
            if seen.suffix(1) == [.cancelled], seen.count >= 4 { break }
        }
        #expect(seen == [.starting, .inBrowser, .cancelled, .cancelled])
        #expect(await coordinator.pendingSessionID == nil)
    }

    @Test func connectReturnThroughTheOSMatchesThePendingSession() async {
        await backend.script {
            $0.connectAnswers = [
                .success(
                    ConnectSession(
                        sessionID: "ses_1", hostedURL: SensitiveURL("https://bb.example/c/x")!,
                        callbackKind: .customScheme))
            ]
            $0.connectStateAnswers = [.success(ConnectSessionState(sessionID: "ses_1", status: .ok))]
        }
        await presenter.script([.returned("acmewallet://bb-callback?sessionId=ses_1&resultCode=Ok&connectionId=c")])
        let coordinator = ConnectCoordinator(
            callback: .customScheme("acmewallet"), returnParser: Fixtures.connectParser, polling: policy,
            backend: backend, presenter: presenter, clock: clock)
        await coordinator.returnLink("acmewallet://bb-callback?sessionId=ses_1&resultCode=Ok")
        #expect(await backend.calls.isEmpty, "no pending flow: ignored")
        await coordinator.connectTapped()
        await coordinator.whenIdle()
        #expect(await coordinator.screen == .connected)
        #expect(await backend.calls == [.createConnectSession(.customScheme), .connectSession(id: "ses_1")])
    }
}
