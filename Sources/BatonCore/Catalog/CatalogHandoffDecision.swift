/// The outcome of ``resolveCatalogHandoff(item:publication:evidence:now:policy:)`` for one item and one user.
public enum CatalogHandoffDecision: Sendable, Hashable {
    /// Why an item is not shown at all.
    public enum HiddenReason: String, Sendable, Hashable, CaseIterable, Codable {
        /// The publication has expired.
        case publicationExpired = "publication_expired"
        /// The item's status is not `published`.
        case notPublished = "not_published"
        /// The image has not been mirrored to a partner-owned https URL, or has no alt text.
        case imageUnavailable = "image_unavailable"
        /// A required presentation field (title, summary, price, block order, neutral page) cannot be rendered.
        case unrenderable = "unrenderable"
        /// The user's region is not one of the item's regions.
        case regionMismatch = "region_mismatch"
    }

    /// Why sharing is not offered (the neutral page still is).
    public enum NeutralOnlyReason: String, Sendable, Hashable, CaseIterable, Codable {
        /// No service-state evidence could be derived.
        case evidenceMissing = "evidence_missing"
        /// The user is not authenticated.
        case notAuthenticated = "not_authenticated"
        /// The evidence is older than its TTL.
        case evidenceStale = "evidence_stale"
        /// The evidence is dated in the future beyond the clock-skew tolerance.
        case evidenceFromFuture = "evidence_from_future"
        /// The evidence schema version is not supported.
        case unsupportedSchemaVersion = "unsupported_schema_version"
        /// The account is not `active`.
        case accountNotActive = "account_not_active"
        /// The item does not allow sharing.
        case sharingNotAllowed = "sharing_not_allowed"
        /// The item allows sharing but its disclosure is missing or cannot be rendered.
        case disclosureUnavailable = "disclosure_unavailable"
    }

    /// Not shown: drop the item from the user's catalog.
    case hidden(HiddenReason)
    /// Shown with one action opening the neutral page; no session-creation action exists.
    case neutralOnly(NeutralOnlyReason)
    /// Shown with the item's current disclosure and both actions.
    case shareOrNeutral(CatalogDisclosure)

    /// The handoff mode, or `nil` when hidden.
    public var mode: MobileHandoff.Mode? {
        switch self {
        case .hidden: nil
        case .neutralOnly: .neutralOnly
        case .shareOrNeutral: .shareOrNeutral
        }
    }
}
