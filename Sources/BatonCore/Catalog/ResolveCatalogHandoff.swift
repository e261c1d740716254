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
    if publication.isExpired(at: now) { return .hidden(.publicationExpired) }
    if item.status != CatalogItem.publishedStatus { return .hidden(.notPublished) }
    if let reason = CatalogCard.Content(item: item, urls: urls).failure { return .hidden(reason) }

    guard let evidence else { return .neutralOnly(.evidenceMissing) }
    guard evidence.authenticated else { return .neutralOnly(.notAuthenticated) }
    let age = now.timeIntervalSince(evidence.derivedAt)
    if age > policy.evidenceTTL { return .neutralOnly(.evidenceStale) }
    if -age > policy.clockSkewTolerance { return .neutralOnly(.evidenceFromFuture) }
    guard policy.supportedSchemaVersions.contains(evidence.schemaVersion) else {
        return .neutralOnly(.unsupportedSchemaVersion)
    }

    let region = RawURLComponents.asciiLowercased(evidence.region[...])
    guard item.regions.contains(where: { RawURLComponents.asciiLowercased($0[...]) == region }) else {
        return .hidden(.regionMismatch)
    }

    guard evidence.accountState == ServiceStateEvidence.activeAccountState else {
        return .neutralOnly(.accountNotActive)
    }
    guard item.sharingAllowed else { return .neutralOnly(.sharingNotAllowed) }
    guard let disclosure = item.disclosure, let neutralURL = item.neutralURL.flatMap({ HTTPSURL($0, policy: urls) }),
        disclosure.shareOrNeutralHandoff(neutralURL: neutralURL, urls: urls) != nil
    else { return .neutralOnly(.disclosureUnavailable) }
    return .shareOrNeutral(disclosure)
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
