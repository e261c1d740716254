import Foundation

/// The signed-in partner user a request acts for.
public struct AuthenticatedUser: Sendable, Hashable {
    /// The partner's own user id (opaque to Baton).
    public let id: String

    /// Creates a user with `id`.
    public init(id: String) { self.id = id }

    /// Whether `id` may name a user: not empty, and no control character (C0, DEL, C1: `Cc`), so no NUL that a
    /// C API would cut the id at ("victim\0x" read as "victim"). ``AuthenticationMiddleware`` refuses any other id,
    /// whichever ``Authenticator`` produced it.
    public static func isAcceptableID(_ id: String) -> Bool {
        !id.isEmpty && !id.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
