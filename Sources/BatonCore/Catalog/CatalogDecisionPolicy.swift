import Foundation

/// The tunables of the catalog decision: evidence freshness, clock skew and the evidence schemas understood.
public struct CatalogDecisionPolicy: Sendable, Hashable, Codable {
    /// Evidence older than this (seconds) fails safe to `neutral_only`. Default 300.
    public var evidenceTTL: TimeInterval
    /// Evidence dated further than this (seconds) in the future fails safe to `neutral_only`. Default 30.
    public var clockSkewTolerance: TimeInterval
    /// The evidence `schemaVersion`s this backend understands. Default `[1]`.
    public var supportedSchemaVersions: Set<Int>

    /// Creates a policy.
    public init(
        evidenceTTL: TimeInterval = 300, clockSkewTolerance: TimeInterval = 30, supportedSchemaVersions: Set<Int> = [1]
    ) {
        self.evidenceTTL = evidenceTTL
        self.clockSkewTolerance = clockSkewTolerance
        self.supportedSchemaVersions = supportedSchemaVersions
    }
}
