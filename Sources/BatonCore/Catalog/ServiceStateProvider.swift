import Foundation

/// Where the partner's own account system plugs in: derives the user's service-state evidence
/// (`{userId, authenticated, accountState, region, schemaVersion, derivedAt}`, CONTRACTS §3) at request time.
///
/// Return `nil` when nothing can be derived; the decision then fails safe to `neutral_only`. A thrown error is
/// treated the same way by `CatalogService` (BatonServer) (never a reason to show more).
public protocol ServiceStateProvider: Sendable {
    /// The evidence for `user`, derived at (or shortly before) `now`.
    func evidence(for user: AuthenticatedUser, now: Date) async throws -> ServiceStateEvidence?
}
