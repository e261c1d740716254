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

/// Turns a request's bearer token into the partner user it belongs to.
///
/// The partner's own sign-in is out of scope for Baton: a partner plugs its session check in here. Baton ships
/// ``SignedTokenAuthenticator`` (HMAC-signed expiring tokens, minted by `baton token`) for development and for
/// partners without a session service of their own.
public protocol Authenticator: Sendable {
    /// The user `bearerToken` proves, or `nil` when it proves nothing (missing, malformed, forged or expired).
    func authenticate(bearerToken: String, now: Date) -> AuthenticatedUser?

    /// The user `bearerToken` proves, or why it proves nothing (for logs and metrics only, never for the client).
    /// The default calls ``authenticate(bearerToken:now:)`` and reports a refusal as ``TokenRefusal/rejected``.
    func verify(bearerToken: String, now: Date) -> TokenVerification
}

extension Authenticator {
    /// ``authenticate(bearerToken:now:)``, with no reason for a refusal.
    public func verify(bearerToken: String, now: Date) -> TokenVerification {
        authenticate(bearerToken: bearerToken, now: now).map(TokenVerification.accepted) ?? .refused(.rejected)
    }
}
