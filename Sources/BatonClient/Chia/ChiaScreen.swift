import BatonCore

/// What the Chia handoff screen shows: the projection exactly as the backend sent it, and which actions work.
public struct ChiaScreen: Sendable, Hashable {
    /// The screen's content.
    public enum Content: Sendable, Hashable {
        /// Only the catalog card with its call to action; nothing fetched yet.
        case card
        /// Fetching a fresh projection; no action.
        case loading
        /// The item is not in the user's catalog: nothing renders.
        case hidden
        /// The projection could not be fetched: fail safe, no action.
        case unavailable
        /// The just-in-time handoff for this card.
        case handoff(CatalogCard)
    }

    /// A notice shown with the handoff.
    public enum Notice: Sendable, Hashable {
        /// A share request's outcome is unknown; sharing again resends the same request.
        case shareUncertain
        /// As ``shareUncertain``, and the backend asked to wait before retrying. Both actions stay usable: a share
        /// tap now joins the retry, sent when the wait ends.
        case shareRetryLater
        /// The backend no longer accepts the app's sign-in (401): sign in again; sharing then resends the same
        /// request.
        case signInRequired
    }

    /// The content.
    public let content: Content
    /// Whether `Share selection and continue` can be tapped now.
    public let shareEnabled: Bool
    /// Whether the neutral action (`Continue to Chia` / `Continue without sharing`) can be tapped now.
    public let continueEnabled: Bool
    /// The notice, if any.
    public let notice: Notice?

    /// Creates a screen.
    public init(content: Content, shareEnabled: Bool = false, continueEnabled: Bool = false, notice: Notice? = nil) {
        self.content = content
        self.shareEnabled = shareEnabled
        self.continueEnabled = continueEnabled
        self.notice = notice
    }

    /// The action labels rendered, in order: none, `Continue to Chia`, or the two share-or-neutral actions.
    public var actionLabels: [String] {
        guard case .handoff(let card) = content else { return [] }
        switch card.handoff {
        case .neutralOnly: return [MobileHandoff.continueLabel]
        case .shareOrNeutral: return [MobileHandoff.shareLabel, MobileHandoff.continueWithoutSharingLabel]
        }
    }

    /// The telemetry category of what is rendered, when it is a projection.
    var projectionCategory: TelemetryEvent.ProjectionCategory? {
        switch content {
        case .card, .loading: nil
        case .hidden: .hidden
        case .unavailable: .unavailable
        case .handoff(let card):
            switch card.handoff {
            case .neutralOnly: .neutralOnly
            case .shareOrNeutral: .shareOrNeutral
            }
        }
    }
}
