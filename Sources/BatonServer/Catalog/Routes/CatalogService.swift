import BatonCore
import BatonHTTP
import Foundation

/// The ``CatalogProjection`` over the catalog this instance serves: the stored publication (from the
/// ``CatalogCache`` the ``CatalogSync`` fills), the mirrored images, and the user's evidence from the
/// ``ServiceStateProvider``, decided per item by `resolveCatalogCard(item:publication:evidence:now:policy:)`.
///
/// Partner-local only: never a call to Chia. Also serves `GET /v2/catalog` and `GET /assets/{file}` (see
/// `CatalogService+Routes.swift`).
public struct CatalogService: CatalogProjection {
    let cache: CatalogCache
    let store: any Store
    let evidenceProvider: any ServiceStateProvider
    let policy: CatalogDecisionPolicy
    let now: @Sendable () -> Date
    let assetBytes: AssetByteCache

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - cache: the catalog the sync keeps (``CatalogSync/cache``).
    ///   - store: where mirrored image bytes are read from.
    ///   - evidence: the partner's account system (the sandbox's fixture users in development).
    ///   - policy: evidence TTL, clock skew and schema versions (`chia.decisionPolicy`).
    ///   - assetCacheBytes: how many image bytes to keep in memory for `/assets/…`.
    ///   - now: the clock the route handlers use.
    public init(
        cache: CatalogCache, store: any Store, evidence: any ServiceStateProvider, policy: CatalogDecisionPolicy,
        assetCacheBytes: Int = 32 << 20, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.cache = cache
        self.store = store
        self.evidenceProvider = evidence
        self.policy = policy
        self.now = now
        self.assetBytes = AssetByteCache(capacity: assetCacheBytes)
    }

    public func cards(for user: AuthenticatedUser, now: Date) async throws -> [CatalogCard] {
        guard let catalog = cache.catalog, !catalog.publication.isExpired(at: now) else { return [] }
        let evidence = await evidence(for: user, now: now)
        return catalog.projection.cards(publication: catalog.publication, evidence: evidence, now: now, policy: policy)
    }

    /// - Throws: `503 catalog_unavailable` with `Retry-After` while this instance has not loaded any publication yet
    ///   (just started, Chia or the store unreachable): "not offered" would be a definitive `409` the app acts on by
    ///   discarding its key, orphaning a journey an earlier attempt with that key may already have created.
    public func handoff(for user: AuthenticatedUser, catalogItemID: String, now: Date) async throws -> MobileHandoff? {
        guard let catalog = cache.catalog else { throw Self.catalogUnavailable }
        let evidence = await evidence(for: user, now: now)
        return catalog.projection.card(
            itemID: catalogItemID, publication: catalog.publication, evidence: evidence, now: now, policy: policy)?
            .handoff
    }

    static let catalogUnavailable = HTTPError(
        .catalogUnavailable,
        detail: "The catalog is not loaded yet. Retry with the same key and body.", headers: ["retry-after": "1"])

    /// The user's evidence; a provider error counts as no evidence (fail safe: `neutral_only`).
    func evidence(for user: AuthenticatedUser, now: Date) async -> ServiceStateEvidence? {
        guard let evidence = try? await evidenceProvider.evidence(for: user, now: now) else { return nil }
        // Evidence about someone else is no evidence about this user.
        return evidence.userID == user.id ? evidence : nil
    }
}
