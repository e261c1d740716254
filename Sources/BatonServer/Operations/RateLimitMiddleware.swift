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
///
/// The three create routes draw on a second, smaller bucket of their own (``BackendConfiguration/RateLimit/createBurst``
/// at ``BackendConfiguration/RateLimit/createPerMinute``) instead: the general one is sized for polling a status
/// every two seconds, which would let one account create thousands of provider sessions an hour.
struct RateLimitMiddleware: HTTPMiddleware {
    /// Path prefixes of the provider-backed routes (CONTRACTS.md §2): share, verification, connect.
    static let limitedPrefixes = [
        "/v2/handoff-sessions", "/v2/verification-handoffs", "/v2/verifications/", "/v2/connect-sessions",
    ]
    /// The routes that create a provider session (POST only).
    static let createPaths: Set<String> = ["/v2/handoff-sessions", "/v2/verification-handoffs", "/v2/connect-sessions"]

    let store: any Store
    let limit: BackendConfiguration.RateLimit
    let now: @Sendable () -> Date
    let metrics: BackendMetrics

    nonisolated(nonsending) func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse {
        guard Self.limitedPrefixes.contains(where: request.path.hasPrefix),
            let user = request.attributes[AuthenticatedUserKey.self]
        else { return try await next(request) }
        let take =
            request.method == .post && Self.createPaths.contains(request.path)
            ? RateLimitTake(bucket: "create:" + user.id, burst: limit.createBurst, perMinute: limit.createPerMinute)
            : RateLimitTake(bucket: "user:" + user.id, burst: limit.burst, perMinute: limit.perMinute)
        let pending = PendingRateLimit(take: take, store: store, metrics: metrics)
        // A share takes its token in the same store call as its claim (``HandoffSessionService``), or alone before
        // it answers anything else: one store hop fewer per share, the same answers.
        if request.method == .post, request.path == "/v2/handoff-sessions" {
            var request = request
            request.attributes[PendingRateLimitKey.self] = pending
            return try await next(request)
        }
        try await pending.takeAlone(now: now())
        return try await next(request)
    }
}

/// The request attribute holding a share's rate-limit token, not yet taken: the route takes it with its claim.
enum PendingRateLimitKey: RequestAttributeKey {
    typealias Value = PendingRateLimit
}

/// A request's token, to take before anything else happens: alone, or with the share's claim.
struct PendingRateLimit: Sendable {
    let take: RateLimitTake
    let store: any Store
    let metrics: BackendMetrics

    /// Takes the token; an empty bucket throws `429 rate_limited` (counted in `baton_rate_limited_total`).
    func takeAlone(now: Date) async throws {
        let decision = try await store.takeRateLimitToken(
            bucket: take.bucket, burst: take.burst, perMinute: take.perMinute, now: now)
        if case .limited(let seconds) = decision { throw limited(seconds) }
    }

    /// Takes the token and, only if taken, claims as ``Store/claim(user:key:fingerprint:owner:leaseUntil:now:)``.
    func takeThenClaim(
        user: String, key: String, fingerprint: String, owner: String, leaseUntil: Date, now: Date
    ) async throws -> IdempotencyClaim {
        switch try await store.takeRateLimitTokenAndClaim(
            take, user: user, key: key, fingerprint: fingerprint, owner: owner, leaseUntil: leaseUntil, now: now)
        {
        case .limited(let seconds): throw limited(seconds)
        case .claim(let claim): return claim
        }
    }

    private func limited(_ seconds: Int) -> HTTPError {
        metrics.recordRateLimited()
        return BackendProblem.rateLimited(retryAfter: seconds)
    }
}
