import BatonCore
import Foundation
import Testing

@testable import BatonClient

/// Transcripts of the Chia machine: each step is an event and exactly the effects it must cause.
@Suite struct ChiaHandoffMachineTests {
    typealias Machine = ChiaHandoffMachine
    let share = Fixtures.shareCard
    let neutral = Fixtures.neutralCard
    let journey = SensitiveURL(Fixtures.journeyURL)!
    let neutralURL = SensitiveURL(Fixtures.neutralURL)!

    func presented(_ card: CatalogCard, share: Bool, notice: ChiaScreen.Notice? = nil) -> ChiaScreen {
        ChiaScreen(content: .handoff(card), shareEnabled: share, continueEnabled: true, notice: notice)
    }

    func body(at date: Date = Fixtures.at(5)) -> ShareRequestBody {
        ShareRequestBody(catalogItemId: Fixtures.itemID, disclosureVersion: "dv-3", affirmedAt: date)
    }

    @Test func shareTapDisablesBothActionsBeforeTheOneRequestAndJoinsDuplicates() {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        #expect(
            machine.handle(.callToActionTapped).effects == [.render(ChiaScreen(content: .loading)), .fetchProjection])
        #expect(machine.handle(.projectionLoaded(share)).effects == [.render(presented(share, share: true))])

        let attempt = PendingAttempt(key: Fixtures.keyA, body: body())
        #expect(
            machine.handle(.shareTapped(at: Fixtures.at(5), freshKey: Fixtures.keyA)).effects == [
                .render(ChiaScreen(content: .handoff(share))), .savePendingAttempt(attempt), .sendShareRequest(attempt),
            ])
        #expect(
            machine.handle(.shareTapped(at: Fixtures.at(6), freshKey: Fixtures.keyB)) == [
                .record(.duplicateTapJoined(.chia))
            ])
        #expect(machine.handle(.continueTapped).effects == [])

        #expect(
            machine.handle(.shareSucceeded(journey)).effects == [
                .discardPendingAttempt, .render(ChiaScreen(content: .handoff(share))), .openExternalBrowser(journey),
            ])
        #expect(machine.handle(.shareTapped(at: Fixtures.at(7), freshKey: Fixtures.keyB)).effects == [])
        #expect(machine.handle(.shareSucceeded(journey)).effects == [], "a second response never navigates")
    }

    @Test func theJourneyURLIsNotKeptInStateAfterItIsOpened() {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        _ = machine.handle(.callToActionTapped)
        _ = machine.handle(.projectionLoaded(share))
        _ = machine.handle(.shareTapped(at: Fixtures.at(5), freshKey: Fixtures.keyA))
        _ = machine.handle(.shareSucceeded(journey))
        #expect(!containsSensitiveURL(machine))
        #expect(!String(reflecting: machine).contains("phs_"))
    }

    @Test(arguments: [
        ShareRequestOutcome.transportFailure(.timedOut), .transportFailure(.connectionReset),
        .response(status: 408, retryAfter: nil), .response(status: 429, retryAfter: nil),
        .response(status: 500, retryAfter: nil), .response(status: 503, retryAfter: nil),
    ])
    func uncertainFailureKeepsTheExactBodyAndKeyForTheRetry(outcome: ShareRequestOutcome) {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        _ = machine.handle(.callToActionTapped)
        _ = machine.handle(.projectionLoaded(share))
        let attempt = PendingAttempt(key: Fixtures.keyA, body: body())
        _ = machine.handle(.shareTapped(at: Fixtures.at(5), freshKey: Fixtures.keyA))

        #expect(
            machine.handle(.shareFailed(outcome, at: Fixtures.at(6))).effects == [
                .render(presented(share, share: true, notice: .shareUncertain))
            ])
        #expect(
            machine.handle(.shareTapped(at: Fixtures.at(30), freshKey: Fixtures.keyB)).effects == [
                .render(ChiaScreen(content: .handoff(share))), .sendShareRequest(attempt),
            ])
    }

    func waitingAfterA429(_ machine: inout Machine) -> [Machine.Action] {
        _ = machine.handle(.callToActionTapped)
        _ = machine.handle(.projectionLoaded(share))
        _ = machine.handle(.shareTapped(at: Fixtures.at(5), freshKey: Fixtures.keyA))
        return machine.handle(.shareFailed(.response(status: 429, retryAfter: "10"), at: Fixtures.at(6)))
    }

    @Test func bothActionsStayUsableDuringARetryAfterWait() {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        #expect(
            waitingAfterA429(&machine).effects == [
                .scheduleTick(at: Fixtures.at(16)), .render(presented(share, share: true, notice: .shareRetryLater)),
            ])
        #expect(machine.handle(.tick(Fixtures.at(15))).effects == [])
        #expect(
            machine.handle(.tick(Fixtures.at(16))).effects == [
                .render(presented(share, share: true, notice: .shareUncertain))
            ], "no tap during the wait: nothing is sent by itself")
    }

    @Test func aShareTapDuringTheWaitJoinsThePendingRetry() {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        _ = waitingAfterA429(&machine)
        let attempt = PendingAttempt(key: Fixtures.keyA, body: body())
        #expect(
            machine.handle(.shareTapped(at: Fixtures.at(8), freshKey: Fixtures.keyB)).effects == [
                .render(presented(share, share: false, notice: .shareRetryLater))
            ], "no new key, no request during the wait; Continue stays usable")
        #expect(
            machine.handle(.shareTapped(at: Fixtures.at(9), freshKey: Fixtures.keyB)) == [
                .record(.duplicateTapJoined(.chia))
            ])
        #expect(machine.handle(.tick(Fixtures.at(15))).effects == [])
        #expect(
            machine.handle(.tick(Fixtures.at(16))).effects == [
                .render(ChiaScreen(content: .handoff(share))), .sendShareRequest(attempt),
            ], "one request with the kept body and key when the wait ends")
        #expect(machine.handle(.tick(Fixtures.at(17))).effects == [])
    }

    @Test func continueWithoutSharingDuringTheWaitCancelsAJoinedRetry() {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        _ = waitingAfterA429(&machine)
        _ = machine.handle(.shareTapped(at: Fixtures.at(8), freshKey: Fixtures.keyB))
        #expect(
            machine.handle(.continueTapped).effects == [
                .render(ChiaScreen(content: .handoff(share))), .openExternalBrowser(neutralURL),
            ])
        #expect(machine.handle(.tick(Fixtures.at(16))).effects == [], "the joined retry is never sent")
    }

    @Test func a401AsksToSignInAndTheRetryResendsTheSameBodyAndKey() {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        _ = machine.handle(.callToActionTapped)
        _ = machine.handle(.projectionLoaded(share))
        _ = machine.handle(.shareTapped(at: Fixtures.at(5), freshKey: Fixtures.keyA))
        #expect(
            machine.handle(.shareFailed(.response(status: 401, retryAfter: nil), at: Fixtures.at(6))).effects == [
                .requestSignIn, .render(presented(share, share: true, notice: .signInRequired)),
            ])
        let attempt = PendingAttempt(key: Fixtures.keyA, body: body())
        #expect(
            machine.handle(.shareTapped(at: Fixtures.at(40), freshKey: Fixtures.keyB)).effects == [
                .render(ChiaScreen(content: .handoff(share))), .sendShareRequest(attempt),
            ])
    }

    @Test(arguments: [400, 403, 404, 409, 410, 422])
    func definitiveRejectionDiscardsTheAttemptAndFetchesANewProjection(status: Int) {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        _ = machine.handle(.callToActionTapped)
        _ = machine.handle(.projectionLoaded(share))
        _ = machine.handle(.shareTapped(at: Fixtures.at(5), freshKey: Fixtures.keyA))
        #expect(
            machine.handle(.shareFailed(.response(status: status, retryAfter: nil), at: Fixtures.at(6))).effects == [
                .discardPendingAttempt, .render(ChiaScreen(content: .loading)), .fetchProjection,
            ])
        _ = machine.handle(.projectionLoaded(share))
        let fresh = PendingAttempt(key: Fixtures.keyB, body: body(at: Fixtures.at(9)))
        #expect(
            machine.handle(.shareTapped(at: Fixtures.at(9), freshKey: Fixtures.keyB)).effects == [
                .render(ChiaScreen(content: .handoff(share))), .savePendingAttempt(fresh), .sendShareRequest(fresh),
            ])
    }

    @Test func restoredAttemptIsResentUnchangedAfterARestart() {
        let attempt = PendingAttempt(key: Fixtures.keyA, body: body())
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        #expect(
            machine.handle(.restored(attempt)).effects == [.render(ChiaScreen(content: .loading)), .fetchProjection])
        #expect(
            machine.handle(.projectionLoaded(share)).effects == [
                .render(presented(share, share: true, notice: .shareUncertain))
            ])
        #expect(
            machine.handle(.shareTapped(at: Fixtures.at(99), freshKey: Fixtures.keyB)).effects == [
                .render(ChiaScreen(content: .handoff(share))), .sendShareRequest(attempt),
            ])
    }

    @Test func restoredAttemptForAChangedProjectionIsDiscarded() {
        let attempt = PendingAttempt(key: Fixtures.keyA, body: body())
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        _ = machine.handle(.restored(attempt))
        let changed = Fixtures.card(mode: "share_or_neutral", disclosureVersion: "dv-4")
        #expect(
            machine.handle(.projectionLoaded(changed)).effects == [
                .discardPendingAttempt, .render(presented(changed, share: true)),
            ])
    }

    @Test func neutralOnlyHasNoSessionActionAndOpensTheNeutralPageOnce() {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        _ = machine.handle(.callToActionTapped)
        #expect(machine.handle(.projectionLoaded(neutral)).effects == [.render(presented(neutral, share: false))])
        #expect(machine.screen.actionLabels == ["Continue to Chia"])
        #expect(machine.handle(.shareTapped(at: Fixtures.at(5), freshKey: Fixtures.keyA)).effects == [])
        #expect(
            machine.handle(.continueTapped).effects == [
                .render(ChiaScreen(content: .handoff(neutral))), .openExternalBrowser(neutralURL),
            ])
        #expect(machine.handle(.continueTapped).effects == [])
    }

    @Test func hiddenAndUnavailableRenderNoAction() {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        _ = machine.handle(.callToActionTapped)
        #expect(machine.handle(.projectionLoaded(nil)).effects == [.render(ChiaScreen(content: .hidden))])
        #expect(machine.screen.actionLabels.isEmpty)
        #expect(machine.handle(.shareTapped(at: Fixtures.at(5), freshKey: Fixtures.keyA)).effects == [])

        var failing = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        _ = failing.handle(.callToActionTapped)
        #expect(failing.handle(.projectionFailed).effects == [.render(ChiaScreen(content: .unavailable))])
        #expect(failing.handle(.continueTapped).effects == [])
    }

    @Test func foregroundAfterTheJourneyRefreshesWithoutAnOutcome() {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: nil)
        #expect(machine.handle(.foregrounded).effects == [], "no request before the first tap")
        _ = machine.handle(.callToActionTapped)
        _ = machine.handle(.projectionLoaded(share))
        _ = machine.handle(.shareTapped(at: Fixtures.at(5), freshKey: Fixtures.keyA))
        _ = machine.handle(.shareSucceeded(journey))
        #expect(machine.handle(.backgrounded).effects == [])
        #expect(machine.handle(.foregrounded).effects == [.render(ChiaScreen(content: .loading)), .fetchProjection])
        #expect(machine.handle(.projectionLoaded(share)).effects == [.render(presented(share, share: true))])
    }

    @Test(arguments: [
        "https://partner.example/", "https://PARTNER.example/done?status=completed&order=42#paid",
        "https://partner.example/x?phs=phs_7Gq2xv#ticket=abc",
    ])
    func genericReturnAlwaysRoutesHomeAndChangesNothing(link: String) {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: Fixtures.genericReturn)
        _ = machine.handle(.callToActionTapped)
        _ = machine.handle(.projectionLoaded(share))
        let before = machine.screen
        #expect(machine.handle(.returnLink(link)).effects == [.routeToMarketplaceHome])
        #expect(machine.screen == before)
    }

    @Test(arguments: ["http://partner.example/", "https://evil.example/", "https://partner.example:8443/", "nonsense"])
    func otherLinksAreIgnored(link: String) {
        var machine = Machine(catalogItemID: Fixtures.itemID, genericReturn: Fixtures.genericReturn)
        #expect(machine.handle(.returnLink(link)).effects == [])
    }
}

/// Whether `value` holds a ``SensitiveURL`` anywhere in its stored properties.
func containsSensitiveURL(_ value: Any) -> Bool {
    if value is SensitiveURL { return true }
    return Mirror(reflecting: value).children.contains { containsSensitiveURL($0.value) }
}
