import BatonHTTP
import Foundation

/// The request attribute holding the user ``AuthenticationMiddleware`` authenticated.
public enum AuthenticatedUserKey: RequestAttributeKey {
    public typealias Value = AuthenticatedUser
}

/// Requires `Authorization: Bearer <token>` on every request under `pathPrefix` (default `/v2/`) and attaches the
/// user it proves; anything else, a user id that is empty or holds a control character included, is
/// `401 unauthorized`, without saying which check failed.
public struct AuthenticationMiddleware: HTTPMiddleware {
    private let authenticator: any Authenticator
    private let pathPrefix: String
    private let now: @Sendable () -> Date

    /// Creates the middleware; `now` is injectable for tests.
    public init(
        authenticator: any Authenticator, pathPrefix: String = "/v2/", now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.authenticator = authenticator
        self.pathPrefix = pathPrefix
        self.now = now
    }

    public func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse {
        guard request.path.hasPrefix(pathPrefix) else { return try await next(request) }
        guard let header = request.headers["authorization"], header.count > 7,
            header.prefix(7).lowercased() == "bearer ",
            let user = authenticator.authenticate(bearerToken: String(header.dropFirst(7)), now: now()),
            AuthenticatedUser.isAcceptableID(user.id)
        else { throw HTTPError.unauthorized() }
        var request = request
        request.attributes[AuthenticatedUserKey.self] = user
        return try await next(request)
    }
}

extension HTTPRequest {
    /// The user ``AuthenticationMiddleware`` authenticated; `401` when there is none.
    public func authenticatedUser() throws(HTTPError) -> AuthenticatedUser {
        guard let user = attributes[AuthenticatedUserKey.self] else { throw HTTPError.unauthorized() }
        return user
    }
}
