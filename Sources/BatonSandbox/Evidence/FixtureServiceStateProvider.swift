import BatonCore
import Foundation

/// A ``ServiceStateProvider`` for the sandbox configuration and tests: per-user fixture profiles, and a default
/// profile for every other signed-in user.
///
/// ``sandbox`` gives every user an active account in `US` (a region the sandbox catalog covers) except the fixture
/// users that exercise the fail-safe paths, listed in ``sandboxProfiles``.
public struct FixtureServiceStateProvider: ServiceStateProvider {
    /// One user's account as the fixture describes it; `derivedAt` is `now - age`.
    public struct Profile: Sendable, Hashable {
        /// Whether the user is signed in.
        public var authenticated: Bool
        /// The account state (`active`, `suspended`, …).
        public var accountState: String
        /// The user's region.
        public var region: String
        /// The evidence schema version.
        public var schemaVersion: Int
        /// How old the evidence is when derived (negative: dated in the future).
        public var age: TimeInterval

        /// Creates a profile; the defaults are a fresh, signed-in, active account in `US`.
        public init(
            authenticated: Bool = true, accountState: String = ServiceStateEvidence.activeAccountState,
            region: String = "US", schemaVersion: Int = 1, age: TimeInterval = 0
        ) {
            self.authenticated = authenticated
            self.accountState = accountState
            self.region = region
            self.schemaVersion = schemaVersion
            self.age = age
        }
    }

    /// Profiles by user id.
    public var profiles: [String: Profile]
    /// Users for whom no evidence can be derived (`nil`).
    public var usersWithoutEvidence: Set<String>
    /// The profile of every other user; `nil` derives no evidence for them.
    public var defaultProfile: Profile?

    /// Creates a provider.
    public init(
        profiles: [String: Profile] = [:], usersWithoutEvidence: Set<String> = [], defaultProfile: Profile? = Profile()
    ) {
        self.profiles = profiles
        self.usersWithoutEvidence = usersWithoutEvidence
        self.defaultProfile = defaultProfile
    }

    /// The sandbox fixture users, each exercising one path of the decision against the sandbox catalog.
    ///
    /// | user | evidence | sandbox catalog shows |
    /// |---|---|---|
    /// | anyone else | active, `US` | `share_or_neutral` for shareable US/GB items, `neutral_only` otherwise |
    /// | `user_gb` | active, `GB` | as above |
    /// | `user_de` | active, `DE` | only the DE/FR items |
    /// | `user_suspended` | suspended, `US` | every item `neutral_only` |
    /// | `user_signed_out` | not authenticated | every item `neutral_only` |
    /// | `user_stale` | derived an hour ago | every item `neutral_only` |
    /// | `user_future` | dated an hour ahead | every item `neutral_only` |
    /// | `user_schema_v9` | schema version 9 | every item `neutral_only` |
    /// | `user_no_evidence` | none | every item `neutral_only` |
    /// | `user_region_jp` | active, `JP` | nothing (every item hidden) |
    public static let sandboxProfiles: [String: Profile] = [
        "user_gb": Profile(region: "GB"),
        "user_de": Profile(region: "DE"),
        "user_suspended": Profile(accountState: "suspended"),
        "user_signed_out": Profile(authenticated: false),
        "user_stale": Profile(age: 3600),
        "user_future": Profile(age: -3600),
        "user_schema_v9": Profile(schemaVersion: 9),
        "user_region_jp": Profile(region: "JP"),
    ]

    /// The provider `baton serve --sandbox` uses.
    public static let sandbox = FixtureServiceStateProvider(
        profiles: sandboxProfiles, usersWithoutEvidence: ["user_no_evidence"], defaultProfile: Profile())

    public func evidence(for user: AuthenticatedUser, now: Date) async throws -> ServiceStateEvidence? {
        guard !usersWithoutEvidence.contains(user.id), let profile = profiles[user.id] ?? defaultProfile else {
            return nil
        }
        return ServiceStateEvidence(
            userID: user.id, authenticated: profile.authenticated, accountState: profile.accountState,
            region: profile.region, schemaVersion: profile.schemaVersion,
            derivedAt: now.addingTimeInterval(-profile.age))
    }
}
