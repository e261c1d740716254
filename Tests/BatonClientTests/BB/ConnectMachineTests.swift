import BatonCore
import Foundation
import Testing

@testable import BatonClient

/// Transcripts of the BB machine.
@Suite struct ConnectMachineTests {
    let hosted = SensitiveURL("https://connect.bb.example/s/opaque-123")!
    let policy = PollingPolicy(interval: 2, timeout: 20)

    func machine(_ callback: ConnectCallback = Fixtures.httpsCallback) -> ConnectMachine {
        ConnectMachine(callback: callback, returnParser: Fixtures.connectParser, polling: policy)
    }

    func session(_ kind: ConnectCallback.Kind = .https) -> ConnectSession {
        ConnectSession(sessionID: "ses_1", hostedURL: hosted, callbackKind: kind)
    }

    func inBrowser(_ callback: ConnectCallback = Fixtures.httpsCallback) -> ConnectMachine {
        var machine = machine(callback)
        _ = machine.handle(.connectTapped(at: Fixtures.t0))
        _ = machine.handle(.sessionCreated(session(callback.kind)))
        return machine
    }

    @Test(arguments: [Fixtures.httpsCallback, .customScheme("acmewallet")])
    func theDevicesCallbackKindIsSentAndTheSheetOpensOnce(callback: ConnectCallback) {
        var machine = machine(callback)
        #expect(
            machine.handle(.connectTapped(at: Fixtures.t0)).effects == [
                .render(.starting), .createSession(callback: callback.kind),
            ])
        #expect(machine.handle(.connectTapped(at: Fixtures.at(1))) == [.record(.duplicateTapJoined(.connect))])
        #expect(
            machine.handle(.sessionCreated(session(callback.kind))).effects == [
                .keepPendingSession(id: "ses_1"), .render(.inBrowser),
                .presentAuthenticationSession(hosted, callback: callback),
            ])
        #expect(machine.handle(.sessionCreated(session(callback.kind))).effects == [])
        #expect(!containsSensitiveURL(machine))
    }

    @Test func aSessionForAnotherCallbackKindIsNotOpened() {
        var machine = machine()
        _ = machine.handle(.connectTapped(at: Fixtures.t0))
        #expect(
            machine.handle(.sessionCreated(session(.customScheme))).effects == [.render(.couldNotStart(.definitive))])
    }

    @Test func matchingReturnIsConfirmedWithTheBackend() {
        var machine = inBrowser()
        let link = "https://app.example.com/bb-callback?sessionId=ses_1&resultCode=Ok&connectionId=con_9"
        #expect(
            machine.handle(.returnLink(link, at: Fixtures.at(10))).effects == [
                .render(.confirming(.ok)), .fetchSession(id: "ses_1"), .scheduleTick(at: Fixtures.at(30)),
            ])
        #expect(
            machine.handle(
                .sessionStateReceived(ConnectSessionState(sessionID: "ses_1", status: .pending), at: Fixtures.at(11))
            )
            .effects == [.scheduleTick(at: Fixtures.at(13))])
        #expect(machine.handle(.tick(Fixtures.at(13))).effects == [.fetchSession(id: "ses_1")])
        #expect(
            machine.handle(
                .sessionStateReceived(
                    ConnectSessionState(sessionID: "ses_1", status: .ok, connectionID: "con_9"), at: Fixtures.at(14))
            ).effects == [.forgetPendingSession, .render(.connected)])
    }

    @Test(arguments: [
        (
            "https://app.example.com/bb-callback?sessionId=ses_OTHER&resultCode=Ok",
            TelemetryEvent.IgnoredReturnReason.sessionMismatch
        ),
        ("https://app.example.com/bb-callback?sessionId=ses_1&resultCode=ok", .rejected(.invalidResultCode)),
        ("https://app.example.com/other?sessionId=ses_1&resultCode=Ok", .rejected(.unregisteredURL)),
        ("https://evil.example/bb-callback?sessionId=ses_1&resultCode=Ok", .rejected(.unregisteredURL)),
        ("https://app.example.com/bb-callback?resultCode=Ok", .rejected(.missingSessionID)),
    ])
    func returnsAreCheckedInAppAuthOrderAndOthersIgnored(link: String, reason: TelemetryEvent.IgnoredReturnReason) {
        var machine = inBrowser()
        #expect(
            machine.handle(.returnLink(link, at: Fixtures.at(3))) == [.record(.returnLinkIgnored(.connect, reason))])
        #expect(machine.screen == .inBrowser)
    }

    @Test func aReturnWithoutAPendingFlowIsIgnored() {
        var machine = machine()
        let link = "acmewallet://bb-callback?sessionId=ses_1&resultCode=Ok"
        #expect(
            machine.handle(.returnLink(link, at: Fixtures.t0)) == [
                .record(.returnLinkIgnored(.connect, .noPendingFlow))
            ])
    }

    @Test func closedSheetTakesTheCancelledPathAndStillAsksTheBackend() {
        var machine = inBrowser()
        #expect(
            machine.handle(.browserClosed(at: Fixtures.at(5))).effects == [
                .render(.cancelled), .fetchSession(id: "ses_1"), .scheduleTick(at: Fixtures.at(25)),
            ])
        #expect(
            machine.handle(
                .sessionStateReceived(ConnectSessionState(sessionID: "ses_1", status: .ok), at: Fixtures.at(6))
            )
            .effects == [.forgetPendingSession, .render(.connected)], "a lost redirect does not hide a real connection")
    }

    @Test func pollingNeverHangs() {
        var closed = inBrowser()
        _ = closed.handle(.browserClosed(at: Fixtures.at(5)))
        #expect(closed.handle(.tick(Fixtures.at(25))).effects == [.render(.cancelled)])

        var returned = inBrowser()
        _ = returned.handle(
            .returnLink("https://app.example.com/bb-callback?sessionId=ses_1&resultCode=Ok", at: Fixtures.at(5)))
        #expect(
            returned.handle(.tick(Fixtures.at(25))).effects == [.render(.checkLater)], "never claims Ok unconfirmed")

        var notFound = inBrowser()
        _ = notFound.handle(.browserClosed(at: Fixtures.at(5)))
        #expect(
            notFound.handle(.sessionStateFailed(.definitive, at: Fixtures.at(6))).effects == [
                .forgetPendingSession, .render(.cancelled),
            ])
    }

    @Test func restoreWithAKeptSessionAsksTheBackend() {
        var machine = machine()
        #expect(
            machine.handle(.restored(pendingSessionID: "ses_1", at: Fixtures.t0)).effects == [
                .render(.confirming(.resumed)), .fetchSession(id: "ses_1"), .scheduleTick(at: Fixtures.at(20)),
            ])
        #expect(
            machine.handle(
                .sessionStateReceived(ConnectSessionState(sessionID: "ses_2", status: .ok), at: Fixtures.at(1))
            )
            .effects == [], "another session's state is ignored")
    }

    @Test(arguments: [
        (
            "https://app.example.com/bb-callback?sessionId=ses_1&resultCode=ok",
            TelemetryEvent.IgnoredReturnReason.rejected(.invalidResultCode)
        ),
        ("https://app.example.com/bb-callback?sessionId=ses_OTHER&resultCode=Ok", .sessionMismatch),
        ("https://app.example.com/bb-callback?resultCode=Ok", .rejected(.missingSessionID)),
        ("acmewallet://other?sessionId=ses_1&resultCode=Ok", .rejected(.unregisteredURL)),
        ("https://app.example.com/bb-callback", .rejected(.missingSessionID)),
    ])
    func anyLinkFromTheSheetEndsTheBrowserPhaseAndAsksAboutTheBackendsSession(
        link: String, reason: TelemetryEvent.IgnoredReturnReason
    ) {
        var machine = inBrowser()
        let actions = machine.handle(.sheetReturned(link, at: Fixtures.at(5)))
        #expect(
            actions.effects == [
                .render(.confirming(.unknown)), .fetchSession(id: "ses_1"), .scheduleTick(at: Fixtures.at(25)),
            ], "the session asked about is the backend's, never the link's")
        #expect(actions.contains(.record(.returnLinkIgnored(.connect, reason))), "the reason goes to telemetry")
        #expect(actions.contains(.record(.browserClosedWithoutReturn(.connect))))
        #expect(machine.handle(.connectTapped(at: Fixtures.at(6))) == [.record(.duplicateTapJoined(.connect))])
        #expect(machine.handle(.tick(Fixtures.at(25))).effects == [.render(.checkLater)], "never a hang")
        #expect(machine.handle(.connectTapped(at: Fixtures.at(26))).effects.contains(.createSession(callback: .https)))
    }

    @Test func anAcceptedLinkFromTheSheetKeepsItsHint() {
        var machine = inBrowser()
        let link = "https://app.example.com/bb-callback?sessionId=ses_1&resultCode=Cancelled"
        #expect(
            machine.handle(.sheetReturned(link, at: Fixtures.at(5))) == [
                .record(.returnLinkAccepted(.connect)), .render(.confirming(.cancelled)), .fetchSession(id: "ses_1"),
                .scheduleTick(at: Fixtures.at(25)),
            ])
    }

    @Test func aBareReturnURLFromTheOSEndsTheBrowserPhaseOnlyWhileAFlowIsPending() {
        var idle = machine()
        #expect(idle.handle(.returnLink("https://app.example.com/bb-callback", at: Fixtures.t0)).effects == [])

        var machine = inBrowser()
        for notBare in ["https://app.example.com/bb-callback?x=1", "https://app.example.com/other"] {
            #expect(machine.handle(.returnLink(notBare, at: Fixtures.at(3))).effects == [], "\(notBare)")
        }
        #expect(
            machine.handle(.returnLink("acmewallet://bb-callback", at: Fixtures.at(4))).effects == [
                .render(.confirming(.unknown)), .fetchSession(id: "ses_1"), .scheduleTick(at: Fixtures.at(24)),
            ])
    }

    @Test func aColdLaunchReturnConfirmsTheKeptSessionBeforeAnyRestore() {
        var machine = ConnectMachine(
            callback: Fixtures.httpsCallback, returnParser: Fixtures.connectParser, polling: policy,
            pendingSessionID: "ses_1")
        #expect(machine.screen == .ready)
        #expect(machine.pendingSessionID == "ses_1")
        let other = "https://app.example.com/bb-callback?sessionId=ses_2&resultCode=Ok"
        #expect(
            machine.handle(.returnLink(other, at: Fixtures.t0)) == [
                .record(.returnLinkIgnored(.connect, .sessionMismatch))
            ])
        let link = "https://app.example.com/bb-callback?sessionId=ses_1&resultCode=Ok"
        #expect(
            machine.handle(.returnLink(link, at: Fixtures.at(1))).effects == [
                .render(.confirming(.ok)), .fetchSession(id: "ses_1"), .scheduleTick(at: Fixtures.at(21)),
            ])
        #expect(
            machine.handle(
                .sessionStateReceived(ConnectSessionState(sessionID: "ses_1", status: .ok), at: Fixtures.at(2))
            ).effects == [.forgetPendingSession, .render(.connected)])
    }

    @Test func aColdLaunchRestoreWithoutAnIDAsksAboutTheKeptSession() {
        var machine = ConnectMachine(
            callback: Fixtures.httpsCallback, returnParser: Fixtures.connectParser, polling: policy,
            pendingSessionID: "ses_1")
        #expect(
            machine.handle(.restored(pendingSessionID: nil, at: Fixtures.t0)).effects == [
                .render(.confirming(.resumed)), .fetchSession(id: "ses_1"), .scheduleTick(at: Fixtures.at(20)),
            ])
    }
}
