import BatonCore
import Foundation

/// One Chia handoff session: the `phs_…` journey a share created, bound to its `Idempotency-Key`.
public struct ChiaHandoffSession: Sendable, Hashable {
    /// A non-secret id for listings (`hs_…`); the `phs_…` token itself is never listed.
    public let id: String
    /// The opaque `phs_…` path segment of the journey URL.
    let token: String
    /// The key the session was created with.
    public let idempotencyKey: IdempotencyKey
    /// The digest of the creating request's values.
    public let fingerprint: String
    /// The creating request.
    public let request: ChiaHandoffRequest
    /// When it was created.
    public let createdAt: Date
    /// The first instant it no longer opens the co-branded journey.
    public let expiresAt: Date
    /// How many times the journey page was opened while valid.
    public internal(set) var opens: Int = 0

    /// Whether the session is expired at `now`.
    public func isExpired(at now: Date) -> Bool { now >= expiresAt }
}

/// What `POST /v2/handoff-sessions` answers, decided by ``ChiaState/createHandoffSession(key:request:)``.
public enum ChiaHandoffOutcome: Sendable, Hashable {
    /// A new session: 201.
    case created(ChiaHandoffSession, url: SensitiveURL)
    /// The same key and body again while the session is valid: the same 201, `Idempotent-Replayed: true`.
    case replayed(ChiaHandoffSession, url: SensitiveURL)
    /// The same key and body after the session expired: 410 `handoff_session_expired`.
    case expired
    /// The same key with a different body: 422 `idempotency_key_reused`.
    case keyReused
    /// The item does not exist: 404 `catalog_item_not_found`.
    case itemNotFound
    /// The item is not published or does not allow sharing: 409 `sharing_not_allowed`.
    case sharingNotAllowed
    /// The affirmed disclosure version is not the item's current one: 409 `disclosure_version_mismatch`.
    case disclosureVersionMismatch
}
