import BatonCore
import Foundation

/// The Chia handoff flow for one catalog card (seed 000 "Tap sequence"), as a pure state machine.
///
/// No I/O, no clock, no randomness: time and a fresh idempotency key arrive in events, and every effect leaves as an
/// ``Action`` for ``ChiaHandoffCoordinator`` to perform in order. Rules it keeps:
/// - nothing is requested before the user taps; the call to action fetches a fresh projection, rendered as is;
/// - the first share tap disables both actions before the request starts; further taps join it (one request, one
///   navigation); `neutral_only` has no session action at all;
/// - the body and key are saved before the first send and reused unchanged after a network error, 408, 429 or 5xx
///   and after a restart; after a 401 the app is asked to sign in again and the same body and key are resent; a
///   definitive rejection discards them and fetches a new projection;
/// - during a `Retry-After` wait both actions stay usable: `Continue without sharing` works throughout, and a share
///   tap joins the pending retry, which is sent once when the wait ends (no new key, no second request);
/// - the journey URL is opened once, from the initiating response, and never kept: it appears only in the
///   ``Action/openExternalBrowser(_:)`` action;
/// - foreground and restore fetch and render a fresh projection; nothing is inferred from focus or a return.
public struct ChiaHandoffMachine: Sendable {
    /// Something that happened.
    public enum Event: Sendable, Hashable {
        /// The card's call to action was tapped.
        case callToActionTapped
        /// A fresh projection arrived; `nil` when the item is absent from the user's catalog (hidden).
        case projectionLoaded(CatalogCard?)
        /// The projection could not be fetched.
        case projectionFailed
        /// `Share selection and continue` was tapped at `at`; `freshKey` is used only if no attempt is pending.
        case shareTapped(at: Date, freshKey: IdempotencyKey)
        /// `Continue to Chia` or `Continue without sharing` was tapped.
        case continueTapped
        /// The share request succeeded with the journey URL.
        case shareSucceeded(SensitiveURL)
        /// The share request failed with `outcome`, observed at `at`.
        case shareFailed(ShareRequestOutcome, at: Date)
        /// The external browser could not open the URL.
        case browserFailedToOpen
        /// A link was delivered to the app (for example the generic return universal link), raw.
        case returnLink(String)
        /// The app went to the background.
        case backgrounded
        /// The app came back to the foreground.
        case foregrounded
        /// The app restarted into this card's screen, with the attempt its store held (if any).
        case restored(PendingAttempt?)
        /// The clock ticked.
        case tick(Date)
    }

    /// Something the coordinator must do.
    public enum Action: Sendable, Hashable {
        /// Show `screen`.
        case render(ChiaScreen)
        /// `GET /v2/catalog` and report this card (or its absence).
        case fetchProjection
        /// Persist the attempt (body and key) before it is sent.
        case savePendingAttempt(PendingAttempt)
        /// `POST /v2/handoff-sessions` with exactly this body and key.
        case sendShareRequest(PendingAttempt)
        /// Delete the persisted attempt.
        case discardPendingAttempt
        /// Open `url` in the OS external browser, once. The machine does not keep it.
        case openExternalBrowser(SensitiveURL)
        /// Deliver a tick at this time.
        case scheduleTick(at: Date)
        /// Route to marketplace home (the generic return).
        case routeToMarketplaceHome
        /// The backend answered 401: ask the app to sign the user in again. The attempt is kept for the retry.
        case requestSignIn
        /// Record a telemetry event.
        case record(TelemetryEvent)
    }

    enum Phase: Sendable, Hashable {
        case card
        case loading
        case hidden
        case unavailable
        case presenting(CatalogCard)
        case sharing(CatalogCard)
        case opened(CatalogCard)
    }

    /// The catalog item this machine is for.
    public let catalogItemID: String
    private let genericReturn: GenericReturnParser?
    private(set) var phase: Phase = .card
    private(set) var pending: PendingAttempt?
    private(set) var retryNotBefore: Date?
    /// A share tap arrived during the `Retry-After` wait: the kept attempt is sent when the wait ends.
    private(set) var retryQueued = false
    /// The last answer was a 401: the app was asked to sign in again.
    private(set) var signInRequired = false

    /// A machine for `catalogItemID`; `genericReturn` recognises the approved generic return link, if any.
    public init(catalogItemID: String, genericReturn: GenericReturnParser?) {
        self.catalogItemID = catalogItemID
        self.genericReturn = genericReturn
    }

    /// The screen for the current state.
    public var screen: ChiaScreen {
        switch phase {
        case .card: ChiaScreen(content: .card)
        case .loading: ChiaScreen(content: .loading)
        case .hidden: ChiaScreen(content: .hidden)
        case .unavailable: ChiaScreen(content: .unavailable)
        case .presenting(let card):
            ChiaScreen(
                content: .handoff(card), shareEnabled: card.handoff.mode == .shareOrNeutral && !retryQueued,
                continueEnabled: true, notice: notice(for: card))
        case .sharing(let card), .opened(let card):
            ChiaScreen(content: .handoff(card))
        }
    }

    private func notice(for card: CatalogCard) -> ChiaScreen.Notice? {
        guard pending != nil, card.handoff.mode == .shareOrNeutral else { return nil }
        if signInRequired { return .signInRequired }
        return retryNotBefore == nil ? .shareUncertain : .shareRetryLater
    }

    /// Handles `event` and returns the actions to perform, in order.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .callToActionTapped:
            guard [.card, .unavailable].contains(phase) else { return [] }
            return [.record(.actionTapped(.chia, .callToAction))] + refresh()
        case .projectionLoaded(let card):
            guard phase == .loading else { return [] }
            return present(card)
        case .projectionFailed:
            guard phase == .loading else { return [] }
            phase = .unavailable
            return [.render(screen), .record(.projectionRendered(.unavailable))]
        case .shareTapped(let at, let freshKey):
            return share(at: at, freshKey: freshKey)
        case .continueTapped:
            guard case .presenting(let card) = phase else { return joinedIfBusy() }
            phase = .opened(card)
            (retryNotBefore, retryQueued) = (nil, false)
            let neutral: HTTPSURL
            switch card.handoff {
            case .neutralOnly(let handoff): neutral = handoff.url
            case .shareOrNeutral(let handoff): neutral = handoff.neutralURL
            }
            // The neutral URL passed `HTTPSURL` under the policy its card was decoded with: `https`, or loopback `http`
            // under development. It stays what it was accepted as.
            guard let url = SensitiveURL(neutral.string, allowingSchemes: ["https", "http"]) else { return [] }
            return [
                .render(screen), .record(.actionTapped(.chia, .continueWithoutSharing)), .openExternalBrowser(url),
                .record(.browserOpened(.chia, .external)),
            ]
        case .shareSucceeded(let url):
            guard case .sharing(let card) = phase else { return [] }
            phase = .opened(card)
            pending = nil
            return [
                .discardPendingAttempt, .record(.requestFinished(.chia, .success)), .render(screen),
                .openExternalBrowser(url), .record(.browserOpened(.chia, .external)),
            ]
        case .shareFailed(let outcome, let at):
            guard case .sharing(let card) = phase else { return [] }
            return shareFailed(card: card, decision: RetryDecision.classify(outcome, now: at), at: at)
        case .browserFailedToOpen:
            guard case .opened = phase else { return [] }
            return refresh()
        case .returnLink(let link):
            guard let genericReturn else { return [.record(.returnLinkIgnored(.chia, .notConfigured))] }
            switch genericReturn.parse(link) {
            case .accepted: return [.routeToMarketplaceHome, .record(.returnLinkAccepted(.chia))]
            case .rejected(let reason): return [.record(.returnLinkIgnored(.chia, .rejected(reason)))]
            }
        case .backgrounded:
            return []
        case .foregrounded:
            switch phase {
            case .card, .loading, .sharing: return []
            case .hidden, .unavailable, .presenting, .opened: return refresh()
            }
        case .restored(let attempt):
            if let attempt, attempt.body.catalogItemId == catalogItemID, pending == nil {
                pending = attempt
                return [.record(.pendingAttempt(.restored))] + refresh()
            }
            return refresh()
        case .tick(let now):
            guard let notBefore = retryNotBefore, now >= notBefore else { return [] }
            retryNotBefore = nil
            guard case .presenting(let card) = phase else { return [] }
            guard retryQueued, let attempt = pending else { return [.render(screen)] }
            // The wait is over and a tap joined it: send the kept attempt, once.
            retryQueued = false
            phase = .sharing(card)
            return [.render(screen), .sendShareRequest(attempt)]
        }
    }

    private mutating func refresh() -> [Action] {
        phase = .loading
        (retryNotBefore, retryQueued, signInRequired) = (nil, false, false)
        return [.render(screen), .fetchProjection]
    }

    private mutating func present(_ card: CatalogCard?) -> [Action] {
        var actions: [Action] = []
        guard let card, card.id == catalogItemID else {
            phase = .hidden
            return discardPending() + [.render(screen), .record(.projectionRendered(.hidden))]
        }
        // A pending attempt survives only while it still matches the projection it was made for.
        if let attempt = pending, !Self.attempt(attempt, matches: card) {
            actions += discardPending()
        }
        phase = .presenting(card)
        let screen = screen
        return actions + [.render(screen)]
            + (screen.projectionCategory.map { [.record(.projectionRendered($0))] } ?? [])
    }

    private static func attempt(_ attempt: PendingAttempt, matches card: CatalogCard) -> Bool {
        guard case .shareOrNeutral(let share) = card.handoff else { return false }
        return attempt.body.catalogItemId == card.id && attempt.body.disclosureVersion == share.disclosureVersion
    }

    private mutating func discardPending() -> [Action] {
        guard pending != nil else { return [] }
        pending = nil
        return [.discardPendingAttempt, .record(.pendingAttempt(.discarded))]
    }

    private func joinedIfBusy() -> [Action] {
        switch phase {
        case .sharing, .opened, .loading: [.record(.duplicateTapJoined(.chia))]
        case .card, .hidden, .unavailable, .presenting: []
        }
    }

    private mutating func share(at: Date, freshKey: IdempotencyKey) -> [Action] {
        guard case .presenting(let card) = phase, case .shareOrNeutral(let handoff) = card.handoff else {
            return joinedIfBusy()
        }
        if retryNotBefore != nil, pending != nil {
            // During a Retry-After wait: the tap joins the pending retry, sent when the wait ends.
            guard !retryQueued else { return [.record(.duplicateTapJoined(.chia))] }
            retryQueued = true
            return [.render(screen), .record(.actionTapped(.chia, .share)), .record(.pendingAttempt(.reused))]
        }
        signInRequired = false
        phase = .sharing(card)
        var actions: [Action] = [.render(screen), .record(.actionTapped(.chia, .share))]
        let attempt: PendingAttempt
        if let pending {
            attempt = pending
            actions.append(.record(.pendingAttempt(.reused)))
        } else {
            let body = ShareRequestBody(
                catalogItemId: card.id, disclosureVersion: handoff.disclosureVersion, affirmedAt: at)
            attempt = PendingAttempt(key: freshKey, body: body)
            pending = attempt
            actions += [.savePendingAttempt(attempt), .record(.pendingAttempt(.saved))]
        }
        return actions + [.sendShareRequest(attempt)]
    }

    private mutating func shareFailed(card: CatalogCard, decision: RetryDecision, at: Date) -> [Action] {
        switch decision {
        case .signInAndRetryKeepingRequest:
            // The first attempt may have reached Chia: keep body and key for the retry after signing in.
            phase = .presenting(card)
            signInRequired = true
            return [.record(.requestFinished(.chia, .retryable)), .requestSignIn, .render(screen)]
        // `.done` here means a 2xx whose URL could not be read: the session may exist, so retrying unchanged is safe.
        case .retryKeepingRequest, .done:
            let after: Int? = if case .retryKeepingRequest(let seconds) = decision { seconds } else { nil }
            phase = .presenting(card)
            var actions: [Action] = [.record(.requestFinished(.chia, .retryable))]
            if let after, after > 0 {
                let notBefore = at.addingTimeInterval(TimeInterval(after))
                retryNotBefore = notBefore
                actions.append(.scheduleTick(at: notBefore))
            }
            return actions + [.render(screen)]
        case .discardAndRefetchProjection:
            return [.record(.requestFinished(.chia, .definitive))] + discardPending() + refresh()
        }
    }
}
