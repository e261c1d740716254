import BatonCore
import Foundation

/// What one user may be shown of the Chia catalog, decided afresh at each call from partner-local data only
/// (the stored publication, the mirrored images and the user's service-state evidence): never a call to Chia.
///
/// `GET /v2/catalog` renders ``cards(for:now:)``; `POST /v2/handoff-sessions` checks a share against
/// ``handoff(for:catalogItemID:now:)`` and answers `409 projection_changed` when it is no longer offered.
public protocol CatalogProjection: Sendable {
    /// The user's cards, hidden items absent, in catalog order.
    func cards(for user: AuthenticatedUser, now: Date) async throws -> [CatalogCard]

    /// The handoff the user is offered for `catalogItemID` right now; `nil` when the item is hidden or unknown.
    func handoff(for user: AuthenticatedUser, catalogItemID: String, now: Date) async throws -> MobileHandoff?
}
