import BatonCore
import Foundation

/// A Privue verification: one user's journey through one workflow.
public struct PrivueVerification: Sendable, Hashable {
    /// Where a verification stands.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Created; the user has not signed in to the journey yet.
        case pending
        /// The user signed in to the journey.
        case inProgress = "in_progress"
        /// Submitted and approved.
        case approved
        /// Submitted and rejected.
        case rejected
        /// Submitted; a reviewer has to decide.
        case needsReview = "needs_review"

        /// Whether the user has submitted (the journey redirected to the return URL).
        public var isSubmitted: Bool { self == .approved || self == .rejected || self == .needsReview }
    }

    /// The verification id (a lowercase UUID).
    public let id: String
    /// The partner's reference for the user.
    public let userRef: String
    /// The workflow slug.
    public let workflow: String
    /// The registered https return URL the journey redirects to on submit.
    public let returnURL: String
    /// The current status.
    public internal(set) var status: Status
    /// When it was created.
    public let createdAt: Date
    /// When its status last changed.
    public internal(set) var updatedAt: Date
    /// Handoffs created for it (tickets are never listed, only their lifecycle).
    public internal(set) var handoffs: [Handoff] = []

    /// The lifecycle of one handoff ticket, without the ticket.
    public struct Handoff: Sendable, Hashable {
        /// When it was created.
        public let createdAt: Date
        /// When it stops signing anyone in.
        public let expiresAt: Date
        /// When it was redeemed, if it was.
        public internal(set) var redeemedAt: Date?
    }
}

/// The JSON a webhook and `GET /verifications/{id}` carry for a verification.
struct PrivueVerificationBody {
    let id: String
    let userRef: String
    let workflow: String
    let status: String
    let journeyURL: String
    let createdAt: Date
    let updatedAt: Date

    /// The body as Privue writes it: snake_case names, dates in RFC 3339.
    var json: JSONValue {
        [
            "id": .string(id), "user_ref": .string(userRef), "workflow": .string(workflow), "status": .string(status),
            "journey_url": .string(journeyURL), "created_at": .date(createdAt), "updated_at": .date(updatedAt),
        ]
    }
}
