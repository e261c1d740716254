import BatonCore
import BatonHTTP
import Foundation

/// A per-user token bucket in front of the routes that call a provider, so one user cannot spend the partner's
/// provider quota (and get its key rate-limited for everyone).
///
/// Each authenticated user has one bucket of ``BackendConfiguration/RateLimit/burst`` requests, refilled at
/// ``BackendConfiguration/RateLimit/perMinute``, kept in the ``Store`` so every instance sharing the database
/// shares it. An empty bucket answers `429 rate_limited` with `Retry-After` before the route runs, and counts it in
/// `baton_rate_limited_total`. Runs after ``AuthenticationMiddleware``; a request without a user is left to the route
/// (which answers 401).
struct RateLimitMiddleware: HTTPMiddleware {
    /// Path prefixes of the provider-backed routes (CONTRACTS.md §2): share, verification, connect.
    static let limitedPrefixes = [
        "/v2/handoff-sessions", "/v2/verification-handoffs", "/v2/verifications/", "/v2/connect-sessions",
    ]

    let store: any Store
    let limit: BackendConfiguration.RateLimit
    let now: @Sendable () -> Date
    let metrics: BackendMetrics

    nonisolated(nonsending) func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse {
        guard Self.limitedPrefixes.contains(where: request.path.hasPrefix),
            let user = request.attributes[AuthenticatedUserKey.self]
        else { return try await next(request) }
        let decision = try await store.takeRateLimitToken(
            bucket: "user:" + user.id, burst: limit.burst, perMinute: limit.perMinute, now: now())
        if case .limited(let seconds) = decision {
            metrics.recordRateLimited()
            throw BackendProblem.rateLimited(retryAfter: seconds)
        }
        return try await next(request)
    }
}
