import BatonCore
import BatonHTTP
import Foundation

/// The request attribute holding the user ``AuthenticationMiddleware`` authenticated.
public enum AuthenticatedUserKey: RequestAttributeKey {
    public typealias Value = AuthenticatedUser
}

/// Requires `Authorization: Bearer <token>` on every request it runs for (``BackendRoutes`` installs it on the `/v2`
/// group, so every request under `/v2`, a 404 included, needs one) and attaches the user it proves; anything else is `401 unauthorized`, without saying which check failed (no oracle); a user id that is empty or holds a control
/// character is refused as `malformed` whatever the authenticator said. The reason
/// (``TokenRefusal``) is logged as a `token_refused` line with the request id — never the token — and counted in
/// `baton_auth_token_refusals_total`.
public struct AuthenticationMiddleware: HTTPMiddleware {
    private let authenticator: any Authenticator
    private let now: @Sendable () -> Date
    private let logger: Logger?
    private let metrics: BackendMetrics?

    /// Creates the middleware; `now` is injectable for tests. Refusals go to `logger` and `metrics` when given.
    public init(
        authenticator: any Authenticator, now: @escaping @Sendable () -> Date = Date.init,
        logger: Logger? = nil, metrics: BackendMetrics? = nil
    ) {
        self.authenticator = authenticator
        self.now = now
        self.logger = logger
        self.metrics = metrics
    }

    nonisolated(nonsending) public func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse
    {
        let verification: TokenVerification
        if let header = request.headers["authorization"], header.count > 7, header.prefix(7).lowercased() == "bearer " {
            verification = authenticator.verify(bearerToken: String(header.dropFirst(7)), now: now())
        } else {
            verification = .refused(.missing)
        }
        switch verification {
        case .accepted(let user) where !AuthenticatedUser.isAcceptableID(user.id):
            metrics?.recordTokenRefusal(.malformed)
            logger?.log(
                .info, "token_refused", ["id": .string(request.id), "reason": .string(TokenRefusal.malformed.rawValue)])
            throw HTTPError.unauthorized()
        case .accepted(let user):
            var request = request
            request.attributes[AuthenticatedUserKey.self] = user
            return try await next(request)
        case .refused(let reason):
            metrics?.recordTokenRefusal(reason)
            logger?.log(.info, "token_refused", ["id": .string(request.id), "reason": .string(reason.rawValue)])
            throw HTTPError.unauthorized()
        }
    }
}

extension HTTPRequest {
    /// The user ``AuthenticationMiddleware`` authenticated; `401` when there is none.
    public func authenticatedUser() throws(HTTPError) -> AuthenticatedUser {
        guard let user = attributes[AuthenticatedUserKey.self] else { throw HTTPError.unauthorized() }
        return user
    }
}
