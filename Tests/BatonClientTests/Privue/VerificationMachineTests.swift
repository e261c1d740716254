import BatonCore
import Foundation
import Testing

@testable import BatonClient

/// Transcripts of the Privue machine.
@Suite struct VerificationMachineTests {
    let url = SensitiveURL("https://verify.privue.example/acme/kyc#ticket=2nR9v6QpKZ8mLxT4bYw1dJhSaEfG7uNc")!
    let policy = PollingPolicy(interval: 2, timeout: 30)

    func machine() -> VerificationMachine {
        VerificationMachine(workflow: "kyc", returnParser: Fixtures.verificationParser, polling: policy)
    }

    var webPolicy: JourneyWebPolicy {
        JourneyWebPolicy(journeyURL: url, returnURLs: Fixtures.verificationParser.registeredReturnURLs)
    }

    @Test func handoffIsRequestedOnTapAndOpenedUnchangedInOneWebView() {
        var machine = machine()
        #expect(machine.handle(.foregrounded(at: Fixtures.t0)).effects == [], "nothing in advance")
        #expect(
            machine.handle(.verifyTapped(at: Fixtures.t0)).effects == [
                .render(.opening), .requestHandoff(workflow: "kyc"),
            ])
        #expect(machine.handle(.verifyTapped(at: Fixtures.at(1))) == [.record(.duplicateTapJoined(.verification))])
        #expect(
            machine.handle(.handoffCreated(url)).effects == [
                .render(.inJourney), .presentCameraWebView(url, policy: webPolicy),
            ])
        #expect(machine.handle(.handoffCreated(url)).effects == [], "one handoff per browser instance")
        #expect(!containsSensitiveURL(machine), "the URL is not kept once handed to the web view")
    }

    @Test func appSwitchesDuringTheJourneyNeedNoNewHandoffAndEachForegroundAsksTheBackendOnce() {
        var machine = machine()
        _ = machine.handle(.verifyTapped(at: Fixtures.t0))
        _ = machine.handle(.handoffCreated(url))
        #expect(machine.handle(.backgrounded).effects == [])
        #expect(machine.handle(.foregrounded(at: Fixtures.at(60))).effects == [.fetchStatus(workflow: "kyc")])
        #expect(machine.handle(.foregrounded(at: Fixtures.at(61))).effects == [], "one request at a time")
        #expect(machine.handle(.verifyTapped(at: Fixtures.at(61))).effects == [])
        #expect(
            machine.handle(.statusReceived(VerificationStatus(rawValue: "pending"), at: Fixtures.at(62))).effects == [],
            "not settled: the journey goes on, no polling run")
        #expect(machine.screen == .inJourney)
        #expect(machine.handle(.foregrounded(at: Fixtures.at(70))).effects == [.fetchStatus(workflow: "kyc")])
        #expect(machine.handle(.statusFailed(.retryable, at: Fixtures.at(71))).effects == [])
        #expect(machine.handle(.foregrounded(at: Fixtures.at(80))).effects == [.fetchStatus(workflow: "kyc")])
        #expect(
            machine.handle(.statusReceived(VerificationStatus(rawValue: "approved"), at: Fixtures.at(81))).effects == [
                .render(.settled(VerificationStatus(rawValue: "approved")))
            ])
        #expect(machine.handle(.foregrounded(at: Fixtures.at(90))).effects == [])
    }

    @Test(arguments: [
        ("https://partner.example/kyc/done?status=approved", ReturnLinkRejection.missingVerificationID),
        ("https://partner.example/kyc/done", .missingVerificationID),
        ("https://partner.example/kyc/done?verification_id=", .missingVerificationID),
    ])
    func theWebViewEndingOnTheReturnPathWithoutAnIDStillAsksTheBackend(link: String, reason: ReturnLinkRejection) {
        var machine = machine()
        _ = machine.handle(.verifyTapped(at: Fixtures.t0))
        _ = machine.handle(.handoffCreated(url))
        let actions = machine.handle(.webViewReturned(link, at: Fixtures.at(5)))
        #expect(
            actions.effects == [
                .render(.confirming(landingHint: nil)), .fetchStatus(workflow: "kyc"),
                .scheduleTick(at: Fixtures.at(35)),
            ])
        #expect(actions.contains(.record(.returnLinkIgnored(.verification, .rejected(reason)))))
    }

    @Test func aBareReturnURLFromTheOSEndsTheJourney() {
        var idle = machine()
        #expect(idle.handle(.returnLink("https://partner.example/kyc/done", at: Fixtures.t0)).effects == [])
        var machine = machine()
        _ = machine.handle(.verifyTapped(at: Fixtures.t0))
        _ = machine.handle(.handoffCreated(url))
        #expect(
            machine.handle(.returnLink("https://partner.example/kyc/done?x=1", at: Fixtures.at(3))).effects == [])
        #expect(
            machine.handle(.returnLink("https://partner.example/kyc/done", at: Fixtures.at(4))).effects == [
                .render(.confirming(landingHint: nil)), .fetchStatus(workflow: "kyc"),
                .scheduleTick(at: Fixtures.at(34)),
            ])
    }

    @Test func returnLinkStartsBoundedPollingAndItsStatusIsOnlyAHint() {
        var machine = machine()
        _ = machine.handle(.verifyTapped(at: Fixtures.t0))
        _ = machine.handle(.handoffCreated(url))
        let link = "https://partner.example/kyc/done?verification_id=ver_1&status=approved"
        #expect(
            machine.handle(.returnLink(link, at: Fixtures.at(10))).effects == [
                .render(.confirming(landingHint: "approved")), .fetchStatus(workflow: "kyc"),
                .scheduleTick(at: Fixtures.at(40)),
            ])
        #expect(
            machine.handle(.statusReceived(VerificationStatus(rawValue: "in_progress"), at: Fixtures.at(11))).effects
                == [.scheduleTick(at: Fixtures.at(13))])
        #expect(machine.handle(.tick(Fixtures.at(12))).effects == [])
        #expect(machine.handle(.tick(Fixtures.at(13))).effects == [.fetchStatus(workflow: "kyc")])
        #expect(
            machine.handle(.statusReceived(VerificationStatus(rawValue: "rejected"), at: Fixtures.at(14))).effects == [
                .render(.settled(VerificationStatus(rawValue: "rejected")))
            ])
    }

    @Test func closedWebViewAsksTheBackendAndTimesOutToCheckLater() {
        var machine = machine()
        _ = machine.handle(.verifyTapped(at: Fixtures.t0))
        _ = machine.handle(.handoffCreated(url))
        #expect(
            machine.handle(.browserClosed(at: Fixtures.at(5))).effects == [
                .render(.confirming(landingHint: nil)), .fetchStatus(workflow: "kyc"),
                .scheduleTick(at: Fixtures.at(35)),
            ])
        #expect(
            machine.handle(.statusFailed(.retryable, at: Fixtures.at(6))).effects == [.scheduleTick(at: Fixtures.at(8))]
        )
        #expect(machine.handle(.tick(Fixtures.at(8))).effects == [.fetchStatus(workflow: "kyc")])
        #expect(machine.handle(.tick(Fixtures.at(35))).effects == [.render(.checkLater)])
        #expect(
            machine.handle(.statusReceived(VerificationStatus(rawValue: "approved"), at: Fixtures.at(36))).effects == [
                .render(.settled(VerificationStatus(rawValue: "approved")))
            ], "a late answer is still the truth")
    }

    @Test(arguments: [
        "https://partner.example/kyc/other?verification_id=ver_1", "acme://kyc/done?verification_id=ver_1",
        "https://partner.example/kyc/done?status=approved", "https://evil.example/kyc/done?verification_id=ver_1",
    ])
    func linksThatAreNotReturnsChangeNothing(link: String) {
        var machine = machine()
        _ = machine.handle(.verifyTapped(at: Fixtures.t0))
        _ = machine.handle(.handoffCreated(url))
        #expect(machine.handle(.returnLink(link, at: Fixtures.at(3))).effects == [])
        #expect(machine.screen == .inJourney)
    }

    @Test func handoffFailureAllowsANewTapAndALateHandoffIsNeverOpened() {
        var machine = machine()
        _ = machine.handle(.verifyTapped(at: Fixtures.t0))
        #expect(machine.handle(.handoffFailed(.retryable)).effects == [.render(.couldNotStart(.retryable))])
        #expect(machine.handle(.handoffCreated(url)).effects == [])
        #expect(
            machine.handle(.verifyTapped(at: Fixtures.at(3))).effects == [
                .render(.opening), .requestHandoff(workflow: "kyc"),
            ])
    }

    @Test func restoreAsksTheBackendInsteadOfGuessing() {
        var machine = machine()
        #expect(
            machine.handle(.restored(at: Fixtures.t0)).effects == [
                .render(.confirming(landingHint: nil)), .fetchStatus(workflow: "kyc"),
                .scheduleTick(at: Fixtures.at(30)),
            ])
    }
}
