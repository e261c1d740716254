import BatonCore
import BatonTestSupport
import Foundation
import Synchronization
import Testing

@testable import BatonClient

/// The Chia coordinator performs the machine's actions against real collaborators' seams.
@Suite(.timeLimit(.minutes(1))) struct ChiaHandoffCoordinatorTests {
    let backend = ScriptedBackend()
    let store = InMemoryPendingAttemptStore()
    let presenter = RecordingPresenter()
    let clock = ManualClock(Fixtures.t0)
    let telemetry = RecordingTelemetry()

    /// A coordinator whose every fresh key is `key` (a coordinator that reused it would be indistinguishable, so
    /// tests that care use a different key per coordinator).
    func coordinator(key: IdempotencyKey = Fixtures.keyA) -> ChiaHandoffCoordinator {
        ChiaHandoffCoordinator(
            catalogItemID: Fixtures.itemID, genericReturn: Fixtures.genericReturn, backend: backend, store: store,
            presenter: presenter, clock: clock, telemetry: telemetry, makeKey: { key })
    }

    @Test func doubleTapsMakeOneRequestOneNavigationAndSaveBeforeSending() async {
        await backend.script {
            $0.catalogAnswers = [.success([Fixtures.shareCard])]
            $0.shareAnswers = [.success(HandoffSession(url: SensitiveURL(Fixtures.journeyURL)!, expiresAt: nil))]
        }
        await backend.holdShares()
        let coordinator = coordinator()
        await coordinator.callToActionTapped()
        await coordinator.whenIdle()
        #expect(await coordinator.screen.shareEnabled)

        await coordinator.shareTapped()
        let disabled = await coordinator.screen
        #expect(!disabled.shareEnabled && !disabled.continueEnabled, "both disabled before the request returns")
        await coordinator.shareTapped()
        await coordinator.continueTapped()
        await backend.waitForCalls(2)
        let saved = PendingAttempt(
            key: Fixtures.keyA,
            body: ShareRequestBody(catalogItemId: Fixtures.itemID, disclosureVersion: "dv-3", affirmedAt: Fixtures.t0))
        #expect(await store.all == [saved], "saved before the request reached the backend")

        await backend.releaseShares()
        await coordinator.whenIdle()
        await coordinator.shareTapped()
        await coordinator.whenIdle()

        #expect(await backend.calls == [.catalog, .createHandoffSession(saved)])
        #expect(await presenter.presentations == [.init(url: Fixtures.journeyURL, style: .externalBrowser)])
        #expect(await store.all.isEmpty)
        let events = await telemetry.drain()
        #expect(events.contains(.duplicateTapJoined(.chia)))
        #expect(events.allSatisfy { !String(reflecting: $0).contains("://") })
    }

    @Test func uncertainAttemptSurvivesARestartAndIsResentUnchanged() async {
        await backend.script {
            $0.catalogAnswers = [.success([Fixtures.shareCard]), .success([Fixtures.shareCard])]
            $0.shareAnswers = [
                .failure(BackendError(.http(status: 503, code: nil, retryAfter: nil))),
                .success(HandoffSession(url: SensitiveURL(Fixtures.journeyURL)!, expiresAt: nil)),
            ]
        }
        let first = coordinator(key: Fixtures.keyA)
        await first.callToActionTapped()
        await first.whenIdle()
        await first.shareTapped()
        await first.whenIdle()
        #expect(await first.screen.notice == .shareUncertain)
        await first.stop()

        clock.advance(to: Fixtures.at(3600))
        let second = coordinator(key: Fixtures.keyB)
        await second.restore()
        await second.whenIdle()
        #expect(await second.screen.notice == .shareUncertain)
        await second.shareTapped()
        await second.whenIdle()

        let calls = await backend.calls
        #expect(calls.count == 4)
        #expect(calls[1] == calls[3], "same key, same body, an hour and a restart later")
        #expect(await presenter.presentations.count == 1)
        #expect(await store.all.isEmpty)
    }

    @Test func a401AsksTheAppToSignInAndTheRetryKeepsTheStoredBodyAndKey() async {
        await backend.script {
            $0.catalogAnswers = [.success([Fixtures.shareCard])]
            $0.shareAnswers = [
                .failure(
                    BackendError(.http(status: 401, code: ProblemCode(rawValue: "unauthenticated"), retryAfter: nil))),
                .success(HandoffSession(url: SensitiveURL(Fixtures.journeyURL)!, expiresAt: nil)),
            ]
        }
        let signIns = RecordingTelemetry()  // any Sendable recorder: one event per sign-in request
        let keys = KeySequence([Fixtures.keyA, Fixtures.keyB])
        let coordinator = ChiaHandoffCoordinator(
            catalogItemID: Fixtures.itemID, genericReturn: nil, backend: backend, store: store, presenter: presenter,
            clock: clock, makeKey: { keys.next() }, onSignInRequired: { signIns.record(.pendingAttempt(.reused)) })
        await coordinator.callToActionTapped()
        await coordinator.whenIdle()
        await coordinator.shareTapped()
        await coordinator.whenIdle()
        #expect(await coordinator.screen.notice == .signInRequired)
        #expect(await store.all.count == 1, "body and key kept")
        #expect(await signIns.drain().count == 1)

        await coordinator.shareTapped()
        await coordinator.whenIdle()
        let calls = await backend.calls
        #expect(calls.count == 3)
        #expect(calls[1] == calls[2], "the retry after signing in sends the same key and body")
        #expect(await presenter.presentations == [.init(url: Fixtures.journeyURL, style: .externalBrowser)])
    }

    @Test func definitiveRejectionClearsTheStoreAndRefetches() async {
        await backend.script {
            $0.catalogAnswers = [.success([Fixtures.shareCard]), .success([Fixtures.neutralCard])]
            $0.shareAnswers = [.failure(BackendError(.http(status: 409, code: .projectionChanged, retryAfter: nil)))]
        }
        let coordinator = coordinator()
        await coordinator.callToActionTapped()
        await coordinator.whenIdle()
        await coordinator.shareTapped()
        await coordinator.whenIdle()
        #expect(await store.all.isEmpty)
        #expect(await coordinator.screen.actionLabels == ["Continue to Chia"])
        #expect(await presenter.presentations.isEmpty)
    }

    @Test func genericReturnRoutesHome() async {
        let routed = AsyncStream<Void>.makeStream()
        let coordinator = ChiaHandoffCoordinator(
            catalogItemID: Fixtures.itemID, genericReturn: Fixtures.genericReturn, backend: backend, store: store,
            presenter: presenter, clock: clock, onMarketplaceHome: { routed.continuation.yield() })
        await coordinator.returnLink("https://evil.example/")
        await coordinator.returnLink("https://partner.example/done?status=completed#x")
        routed.continuation.finish()
        var count = 0
        for await _ in routed.stream { count += 1 }
        #expect(count == 1)
        #expect(await backend.calls.isEmpty)
    }
}

/// Hands out the given keys in order (then repeats the last), so a test can tell a fresh key from a kept one.
final class KeySequence: Sendable {
    private let state: Mutex<[IdempotencyKey]>

    init(_ keys: [IdempotencyKey]) { state = Mutex(keys) }

    func next() -> IdempotencyKey {
        state.withLock { keys in keys.count > 1 ? keys.removeFirst() : keys[0] }
    }
}
