import BatonCore

/// Why a bearer token proved nothing: logged with the request id and counted in `/metrics`
/// (`baton_auth_token_refusals_total{reason}`), never told to the client, which always gets the same bare `401`.
public enum TokenRefusal: String, Sendable, Hashable, CaseIterable {
    /// No `Authorization: Bearer …` header.
    case missing
    /// Not a token of the expected shape: wrong prefix or parts, bad base64url, a payload that is not exactly
    /// `aud`, `exp`, `iat`, `kid`, `sub` of the right types, an empty or control-character subject.
    case malformed
    /// Well formed, signed with a key id this backend does not hold (a key retired from the ring, another deployment).
    case unknownKey = "unknown_key"
    /// The MAC does not match under the key its id names (forged or altered).
    case badSignature = "bad_signature"
    /// Signed by this backend's key but for another audience (`tokens.audience`).
    case wrongAudience = "wrong_audience"
    /// Valid but past its `exp`.
    case expired
    /// Its `iat` is further ahead of this server's clock than `tokens.clockSkewSeconds`.
    case issuedInFuture = "issued_in_future"
    /// Its `iat` is further back than `tokens.maxLifetimeSeconds`, whatever its `exp` says.
    case tooOld = "too_old"
    /// Signed with a retired key (`BATON_TOKEN_PREVIOUS_SIGNING_KEYS`) past the end date given with it.
    case retiredKey = "retired_key"
    /// A partner ``Authenticator`` refused it without a reason.
    case rejected
}

/// What an ``Authenticator`` concluded about one bearer token.
public enum TokenVerification: Sendable, Hashable {
    /// The token proves this user.
    case accepted(AuthenticatedUser)
    /// The token proves nothing, for this reason.
    case refused(TokenRefusal)

    /// The user, when accepted.
    public var user: AuthenticatedUser? {
        if case .accepted(let user) = self { user } else { nil }
    }
}
