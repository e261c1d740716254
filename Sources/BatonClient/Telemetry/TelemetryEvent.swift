import BatonCore

/// Something worth counting about a flow, in a shape that cannot carry a URL, a query, a selection or an id.
///
/// Every case holds only enumerations from this file (or BatonCore's `ReturnLinkRejection`), each a closed set of
/// small fixed values with no associated data. There is deliberately no `String`, `URL`, `Data` or number payload:
/// a journey URL, a catalog selection or a session id has nowhere to go. ``allCases`` lists every possible event.
public enum TelemetryEvent: Sendable, Hashable {
    /// A projection was rendered for a Chia card.
    case projectionRendered(ProjectionCategory)
    /// The user tapped an action of a flow.
    case actionTapped(FlowKind, TappedAction)
    /// A tap arrived while the flow's one operation was already running, and joined it.
    case duplicateTapJoined(FlowKind)
    /// A request to the partner backend finished.
    case requestFinished(FlowKind, RequestCategory)
    /// A browser component was opened for a journey.
    case browserOpened(FlowKind, BrowserKind)
    /// The browser closed without delivering a return link.
    case browserClosedWithoutReturn(FlowKind)
    /// The browser ended with an error that is not the user's close (``BrowserCompletion/failed``); recorded just
    /// before the flow's ``browserClosedWithoutReturn(_:)``, so a failure and a user's close can be told apart.
    case browserFailed(FlowKind, BrowserKind)
    /// A return link was accepted.
    case returnLinkAccepted(FlowKind)
    /// A return link was ignored, and why.
    case returnLinkIgnored(FlowKind, IgnoredReturnReason)
    /// The Chia pending share attempt changed.
    case pendingAttempt(PendingAttemptChange)
    /// The backend confirmed a settled outcome.
    case outcomeSettled(FlowKind, OutcomeCategory)
    /// Bounded polling ended without a settled outcome ("check later").
    case pollingTimedOut(FlowKind)

    /// Which flow an event is about.
    public enum FlowKind: String, Sendable, Hashable, CaseIterable {
        /// Chia catalog handoff (seed 000).
        case chia
        /// Privue verification (seed 001).
        case verification
        /// BB bank connect (seed 002).
        case connect
    }

    /// What a Chia projection rendered as.
    public enum ProjectionCategory: String, Sendable, Hashable, CaseIterable {
        /// The item is absent: nothing rendered.
        case hidden
        /// One action, no session creation.
        case neutralOnly = "neutral_only"
        /// Two equally usable actions.
        case shareOrNeutral = "share_or_neutral"
        /// The projection could not be fetched: no action rendered.
        case unavailable
    }

    /// Which action was tapped.
    public enum TappedAction: String, Sendable, Hashable, CaseIterable {
        /// The card's call to action (opens the just-in-time disclosure).
        case callToAction = "cta"
        /// `Share selection and continue`.
        case share
        /// `Continue to Chia` / `Continue without sharing`.
        case continueWithoutSharing = "continue"
        /// Start a verification.
        case verify
        /// Start a bank connection.
        case connect
    }

    /// How a backend request ended.
    public enum RequestCategory: String, Sendable, Hashable, CaseIterable {
        /// 2xx.
        case success
        /// Network error, timeout, 429 or 5xx: uncertain, safe to retry unchanged.
        case retryable
        /// Any other 4xx: definitive.
        case definitive
    }

    /// Which browser component was used.
    public enum BrowserKind: String, Sendable, Hashable, CaseIterable {
        /// The OS external browser.
        case external
        /// `ASWebAuthenticationSession` / Custom Tabs.
        case authenticationSession = "authentication_session"
        /// The camera-capable in-app web view.
        case cameraWebView = "camera_web_view"
    }

    /// Why a return link was ignored (AppAuth order: URL, pending flow, ids).
    public enum IgnoredReturnReason: Sendable, Hashable {
        /// The parser rejected the URL.
        case rejected(ReturnLinkRejection)
        /// No flow was waiting for a return.
        case noPendingFlow
        /// The return names another session than the pending one.
        case sessionMismatch
        /// The flow has no registered return (the generic Chia return is not configured).
        case notConfigured

        /// Every reason.
        public static var allCases: [IgnoredReturnReason] {
            ReturnLinkRejection.allCases.map { .rejected($0) } + [.noPendingFlow, .sessionMismatch, .notConfigured]
        }
    }

    /// What happened to the Chia pending share attempt.
    public enum PendingAttemptChange: String, Sendable, Hashable, CaseIterable {
        /// Saved before the first send.
        case saved
        /// Reused for a retry (same body and key).
        case reused
        /// Restored after an app restart.
        case restored
        /// Discarded after a definitive answer or a changed projection.
        case discarded
    }

    /// A settled outcome as the backend reported it.
    public enum OutcomeCategory: String, Sendable, Hashable, CaseIterable {
        /// The journey succeeded (bank connected, verification approved or submitted).
        case success
        /// The journey failed.
        case failure
        /// The user cancelled or closed it.
        case cancelled
        /// The session expired.
        case expired
    }
}
