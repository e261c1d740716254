import BatonCore
import BatonHTTP

/// The problem+json answers of the app-facing API, by stable `code`. Details are fixed phrases: never a value the
/// request or a provider sent.
enum BackendProblem {
    static let idempotencyKeyInvalid = HTTPError(
        .idempotencyKeyInvalid,
        detail: "Idempotency-Key must be a random UUIDv4.")

    static func invalidRequest(_ detail: String) -> HTTPError {
        HTTPError(.invalidRequest, detail: detail)
    }

    static let projectionChanged = HTTPError(
        .projectionChanged,
        detail: "This item's sharing offer changed. Fetch the catalog again before sharing.")

    static let idempotencyKeyReused = HTTPError(
        .idempotencyKeyReused,
        detail: "This Idempotency-Key was already used with a different request body.")

    static let handoffExpired = HTTPError(
        .handoffExpired, detail: "The journey link for this request has expired."
    )

    static let handoffRejected = HTTPError(
        .handoffRejected, detail: "The provider refused this share request.")

    static func stillInProgress(retryAfter seconds: Int) -> HTTPError {
        HTTPError(
            .requestInProgress,
            detail: "The first request with this Idempotency-Key is still running. Retry with the same key and body.",
            headers: ["retry-after": String(seconds)])
    }

    static func storeUnavailable(retryAfter seconds: Int) -> HTTPError {
        HTTPError(
            .serviceUnavailable,
            detail: "Temporarily unavailable. Retry shortly.",
            headers: ["retry-after": String(seconds)])
    }

    /// The answer to a provider that could not be used right now: 429, 503 or 502, always with `Retry-After`.
    static func providerUnavailable(_ failure: ProviderUnavailable, defaultRetryAfter: Int = 1) -> HTTPError {
        let retryAfter = ["retry-after": String(failure.retryAfterSeconds ?? defaultRetryAfter)] as HTTPHeaders
        switch failure.reason {
        case .rateLimited:
            return HTTPError(
                .providerRateLimited,
                detail: "The provider is busy. Retry later.",
                headers: retryAfter)
        case .timedOut:
            return HTTPError(
                .providerTimeout,
                detail: "The provider did not answer in time. Retry later.",
                headers: retryAfter)
        case .unreachable, .broken, .providerError, .malformedAnswer, .unpinnedHost:
            return HTTPError(
                .providerUnavailable,
                detail: "The provider could not be reached. Retry later.",
                headers: retryAfter)
        }
    }

    /// This user already has `rateLimit.maxPendingConnectSessions` connect sessions pending: finish or abandon one
    /// (a pending session stops counting an hour after it was created).
    static let tooManyPending = HTTPError(
        .rateLimited,
        detail: "Too many connect sessions pending for this user. Finish one, or retry after the time in Retry-After.",
        headers: ["retry-after": "60"])

    /// This user sent more provider-backed requests than the per-user limit allows (``RateLimitMiddleware``).
    static func rateLimited(retryAfter seconds: Int) -> HTTPError {
        HTTPError(
            .rateLimited,
            detail: "Too many requests for this user. Retry after the time in Retry-After.",
            headers: ["retry-after": String(seconds)])
    }

    static let notFound = HTTPError(
        .notFound, detail: "No such resource for this user.")

    static let unknownWorkflow = HTTPError(
        .unknownWorkflow, detail: "This workflow is not offered.")

    static let callbackUnavailable = HTTPError(
        .callbackUnavailable,
        detail: "No return URL is registered for this callback kind.")

    static let providerRejected = HTTPError(
        .providerRejected, detail: "The provider refused the request.")
}
