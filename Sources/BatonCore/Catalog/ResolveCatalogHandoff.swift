import Foundation

/// Decides how `item` is offered to the user the `evidence` describes, at `now` (CONTRACTS §3, in order):
///
/// 1. publication expired, item not published, or a required field (the mirrored image included) unrenderable →
///    hidden;
/// 2. evidence missing, not authenticated, older than `policy.evidenceTTL`, dated more than
///    `policy.clockSkewTolerance` in the future, or of an unsupported schema version → neutral only (fail safe);
/// 3. the user's region not among the item's regions → hidden;
/// 4. account not `active`, or the item does not allow sharing (or has no renderable disclosure) → neutral only;
/// 5. otherwise → share or neutral, with the item's current disclosure.
///
/// Boundaries: the publication is expired from `expiresAt` on; evidence exactly `evidenceTTL` old, or exactly
/// `clockSkewTolerance` ahead, is still accepted. URLs are checked under `urls` (loopback `http` renders only under
/// ``URLPolicy/development``). Pure: no clock, no I/O.
public func resolveCatalogHandoff(
    item: CatalogItem, publication: CatalogPublication, evidence: ServiceStateEvidence?, now: Date,
    policy: CatalogDecisionPolicy = CatalogDecisionPolicy(), urls: URLPolicy = .production
) -> CatalogHandoffDecision {
    resolveCatalogHandoff(
        CatalogItemStanding(item: item, urls: urls), publication: publication, evidence: evidence, now: now,
        policy: policy)
}

/// The same decision as ``resolveCatalogHandoff(item:publication:evidence:now:policy:urls:)`` for an item whose
/// user- and time-independent part was worked out once (``CatalogItemStanding``): a server deciding on every request
/// does not parse the item's URLs again each time.
public func resolveCatalogHandoff(
    _ standing: CatalogItemStanding, publication: CatalogPublication, evidence: ServiceStateEvidence?, now: Date,
    policy: CatalogDecisionPolicy = CatalogDecisionPolicy()
) -> CatalogHandoffDecision {
    if publication.isExpired(at: now) { return .hidden(.publicationExpired) }
    if let reason = standing.hiddenReason { return .hidden(reason) }

    guard let evidence else { return .neutralOnly(.evidenceMissing) }
    guard evidence.authenticated else { return .neutralOnly(.notAuthenticated) }
    let age = now.timeIntervalSince(evidence.derivedAt)
    if age > policy.evidenceTTL { return .neutralOnly(.evidenceStale) }
    if -age > policy.clockSkewTolerance { return .neutralOnly(.evidenceFromFuture) }
    guard policy.supportedSchemaVersions.contains(evidence.schemaVersion) else {
        return .neutralOnly(.unsupportedSchemaVersion)
    }

    let region = RawURLComponents.asciiLowercased(evidence.region[...])
    guard standing.regions.contains(region) else { return .hidden(.regionMismatch) }

    guard evidence.accountState == ServiceStateEvidence.activeAccountState else {
        return .neutralOnly(.accountNotActive)
    }
    guard standing.sharingAllowed else { return .neutralOnly(.sharingNotAllowed) }
    guard let disclosure = standing.shareableDisclosure else { return .neutralOnly(.disclosureUnavailable) }
    return .shareOrNeutral(disclosure)
}

/// What the catalog decision reads of an item that depends on neither the user nor the time: whether rule 1 hides
/// it (status, renderable fields and image), its regions (lowercased), whether it allows sharing, and its disclosure
/// when that renders. Pure; computed once per item and published catalog.
public struct CatalogItemStanding: Sendable, Hashable {
    /// Why rule 1 hides the item whatever the user, if it does.
    public let hiddenReason: CatalogHandoffDecision.HiddenReason?
    /// The item's regions, ASCII-lowercased as the decision compares them.
    public let regions: [String]
    /// Whether the item allows sharing.
    public let sharingAllowed: Bool
    /// The item's disclosure when it renders as a share-or-neutral handoff with its neutral URL.
    public let shareableDisclosure: CatalogDisclosure?

    /// Works out `item`'s standing, its URLs checked under `urls`.
    public init(item: CatalogItem, urls: URLPolicy = .production) {
        if item.status != CatalogItem.publishedStatus {
            hiddenReason = .notPublished
        } else {
            hiddenReason = CatalogCard.Content(item: item, urls: urls).failure
        }
        regions = item.regions.map { RawURLComponents.asciiLowercased($0[...]) }
        sharingAllowed = item.sharingAllowed
        if let disclosure = item.disclosure, let neutralURL = item.neutralURL.flatMap({ HTTPSURL($0, policy: urls) }),
            disclosure.shareOrNeutralHandoff(neutralURL: neutralURL, urls: urls) != nil
        {
            shareableDisclosure = disclosure
        } else {
            shareableDisclosure = nil
        }
    }
}

/// Resolves `item` and projects it to the card the app receives; `nil` when the item is hidden.
public func resolveCatalogCard(
    item: CatalogItem, publication: CatalogPublication, evidence: ServiceStateEvidence?, now: Date,
    policy: CatalogDecisionPolicy = CatalogDecisionPolicy(), urls: URLPolicy = .production
) -> CatalogCard? {
    let decision = resolveCatalogHandoff(
        item: item, publication: publication, evidence: evidence, now: now, policy: policy, urls: urls)
    return CatalogCard(item: item, decision: decision, urls: urls)
}
