import Foundation

/// What the partner knows about the user's account, derived by its `ServiceStateProvider` (CONTRACTS §3).
public struct ServiceStateEvidence: Sendable, Hashable, Codable {
    /// The partner's user id.
    public var userID: String
    /// Whether the user is signed in to the partner.
    public var authenticated: Bool
    /// The account state; only `active` allows sharing.
    public var accountState: String
    /// The user's region, compared ASCII case-insensitively with the item's regions.
    public var region: String
    /// The evidence schema version; must be one the policy supports.
    public var schemaVersion: Int
    /// When the evidence was derived.
    public var derivedAt: Date

    /// The account state that allows sharing.
    public static let activeAccountState = "active"

    /// Creates evidence.
    public init(
        userID: String, authenticated: Bool, accountState: String, region: String, schemaVersion: Int,
        derivedAt: Date
    ) {
        self.userID = userID
        self.authenticated = authenticated
        self.accountState = accountState
        self.region = region
        self.schemaVersion = schemaVersion
        self.derivedAt = derivedAt
    }

    enum CodingKeys: String, CodingKey {
        case userID = "userId"
        case authenticated, accountState, region, schemaVersion, derivedAt
    }
}
