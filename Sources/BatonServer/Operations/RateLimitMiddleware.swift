import BatonCore
import BatonHTTP
import Foundation

/// A per-user token bucket in front of the routes that call a provider, so one user cannot spend the partner's
/// provider quota (and get its key rate-limited for everyone).
///
/// Each authenticated user has one bucket of ``BackendConfiguration/RateLimit/burst`` requests, refilled at
/// ``BackendConfiguration/RateLimit/perMinute``, kept in the ``Store`` so every instance sharing the database
/// shares it. An empty bucket answers `429 rate_limited` with `Retry-After` before the route runs, and counts it in
/// `baton_rate_limited_total`. ``BackendRoutes`` installs it on the groups of the provider-backed routes (share,
/// verification, connect), inside ``AuthenticationMiddleware``; a request without a user is left to the route (which
/// answers 401).
///
/// A route that creates a provider session declares ``RouteRateLimit/create`` (``RouteRateLimitKey``) and draws on a
/// second, smaller bucket of its own (``BackendConfiguration/RateLimit/createBurst`` at
/// ``BackendConfiguration/RateLimit/createPerMinute``) instead: the general one is sized for polling a status every
/// two seconds, which would let one account create thousands of provider sessions an hour. A route that declares it
/// takes its token itself (``RouteRateLimit/takenByRoute``) finds it in ``PendingRateLimitKey``, not yet taken.
struct RateLimitMiddleware: HTTPMiddleware {
    let store: any Store
    let limit: BackendConfiguration.RateLimit
    let now: @Sendable () -> Date
    let metrics: BackendMetrics

    nonisolated(nonsending) func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse {
        guard let user = request.attributes[AuthenticatedUserKey.self] else { return try await next(request) }
        let declared = request.attributes[RouteRateLimitKey.self] ?? RouteRateLimit()
        let take =
            switch declared.bucket {
            case .create:
                RateLimitTake(bucket: "create:" + user.id, burst: limit.createBurst, perMinute: limit.createPerMinute)
            case .perUser: RateLimitTake(bucket: "user:" + user.id, burst: limit.burst, perMinute: limit.perMinute)
            }
        let pending = PendingRateLimit(take: take, store: store, metrics: metrics)
        if declared.takenByRoute {
            var request = request
            request.attributes[PendingRateLimitKey.self] = pending
            return try await next(request)
        }
        try await pending.takeAlone(now: now())
        return try await next(request)
    }
}

/// What a provider-backed route declares about its rate-limit token (``RateLimitMiddleware``); a route (or a 404
/// under its group) that declares nothing draws on the per-user bucket, taken before it runs.
struct RouteRateLimit: Sendable {
    /// The bucket a route draws on.
    enum Bucket: Sendable {
        /// The general per-user bucket, sized for polling.
        case perUser
        /// The smaller bucket of the routes that create a provider session.
        case create
    }

    var bucket = Bucket.perUser
    /// Whether the route takes the token itself: a share takes it in the same store call as its claim
    /// (``HandoffSessionService``), or alone before it answers anything else, one store hop fewer per share.
    var takenByRoute = false

    /// A create route's declaration.
    static let create = RouteRateLimit(bucket: .create)
}

/// The request attribute a route declares its ``RouteRateLimit`` in.
enum RouteRateLimitKey: RequestAttributeKey {
    typealias Value = RouteRateLimit
}

extension RequestAttributes {
    /// A route that draws on the create bucket (``RouteRateLimit``), the middleware taking its token.
    static let createsProviderSession = RequestAttributes().with(RouteRateLimitKey.self, .create)

    /// A route that draws on the create bucket and takes its token itself, with its claim.
    static let createsProviderSessionTakingItsOwnToken = RequestAttributes().with(
        RouteRateLimitKey.self, RouteRateLimit(bucket: .create, takenByRoute: true))
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
