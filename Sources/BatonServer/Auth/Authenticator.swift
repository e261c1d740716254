import BatonCore
import Foundation

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
