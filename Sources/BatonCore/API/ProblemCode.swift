/// The `code` of an `application/problem+json` answer of the app-facing API (CONTRACTS.md §2, "Problem codes").
///
/// The server emits only these; the client compares against them instead of string literals. An unknown code read
/// from a response is kept as it came (``rawValue``), so a newer backend does not break an older app.
public struct ProblemCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The code as written in the problem document.
    public let rawValue: String

    /// Wraps `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The code itself.
    public var description: String { rawValue }

    /// 400: the share's `Idempotency-Key` is not a random UUIDv4.
    public static let idempotencyKeyInvalid = ProblemCode(rawValue: "idempotency_key_invalid")
    /// 400: a request body that is not exactly what the route reads.
    public static let invalidRequest = ProblemCode(rawValue: "invalid_request")
    /// 400: a request target that is not origin-form.
    public static let invalidTarget = ProblemCode(rawValue: "invalid_target")
    /// 400: conflicting `Content-Length`/`Transfer-Encoding` framing.
    public static let invalidFraming = ProblemCode(rawValue: "invalid_framing")
    /// 400: a header field with a control character or an obs-fold line.
    public static let invalidHeaderField = ProblemCode(rawValue: "invalid_header_field")
    /// 401: no acceptable app token.
    public static let unauthorized = ProblemCode(rawValue: "unauthorized")
    /// 403: a local-only route asked from elsewhere.
    public static let notLocal = ProblemCode(rawValue: "not_local")
    /// 404: no such resource for this user.
    public static let notFound = ProblemCode(rawValue: "not_found")
    /// 404: a Privue workflow this backend does not offer.
    public static let unknownWorkflow = ProblemCode(rawValue: "unknown_workflow")
    /// 405: the route exists, the method does not.
    public static let methodNotAllowed = ProblemCode(rawValue: "method_not_allowed")
    /// 409: the item's sharing offer changed since the catalog was read.
    public static let projectionChanged = ProblemCode(rawValue: "projection_changed")
    /// 410: the journey link of this share has expired.
    public static let handoffExpired = ProblemCode(rawValue: "handoff_expired")
    /// 413: the body is too large.
    public static let payloadTooLarge = ProblemCode(rawValue: "payload_too_large")
    /// 414: the target is too long.
    public static let uriTooLong = ProblemCode(rawValue: "uri_too_long")
    /// 431: the header fields are too large.
    public static let requestHeaderFieldsTooLarge = ProblemCode(rawValue: "request_header_fields_too_large")
    /// 422: the `Idempotency-Key` was used with a different body.
    public static let idempotencyKeyReused = ProblemCode(rawValue: "idempotency_key_reused")
    /// 422: the provider refused the share.
    public static let handoffRejected = ProblemCode(rawValue: "handoff_rejected")
    /// 422: no return URL is registered for the requested connect callback kind.
    public static let callbackUnavailable = ProblemCode(rawValue: "callback_unavailable")
    /// 4xx: the replay of an earlier definitive refusal.
    public static let requestRejected = ProblemCode(rawValue: "request_rejected")
    /// 429: the provider is limiting requests.
    public static let providerRateLimited = ProblemCode(rawValue: "provider_rate_limited")
    /// 429: this user passed the per-user limit.
    public static let rateLimited = ProblemCode(rawValue: "rate_limited")
    /// 500: an internal failure (the answer carries a `requestId`, no internals).
    public static let internalError = ProblemCode(rawValue: "internal_error")
    /// 501: a transfer coding other than exactly `chunked`.
    public static let unsupportedTransferCoding = ProblemCode(rawValue: "unsupported_transfer_coding")
    /// 502: the provider could not be used.
    public static let providerUnavailable = ProblemCode(rawValue: "provider_unavailable")
    /// 502: the provider refused the request.
    public static let providerRejected = ProblemCode(rawValue: "provider_rejected")
    /// 503: the provider did not answer in time.
    public static let providerTimeout = ProblemCode(rawValue: "provider_timeout")
    /// 503: the first request with this `Idempotency-Key` is still running.
    public static let requestInProgress = ProblemCode(rawValue: "request_in_progress")
    /// 503: no catalog publication is loaded yet.
    public static let catalogUnavailable = ProblemCode(rawValue: "catalog_unavailable")
    /// 503: the backend is temporarily unavailable (its store, for example).
    public static let serviceUnavailable = ProblemCode(rawValue: "service_unavailable")
    /// 400 from a webhook receiver: the delivery does not parse.
    public static let webhookMalformed = ProblemCode(rawValue: "webhook_malformed")
    /// 401 from a webhook receiver: the signature or timestamp does not verify.
    public static let webhookRejected = ProblemCode(rawValue: "webhook_rejected")
}

extension ProblemCode {
    /// Every code the backend answers with, in the order the codes are declared above.
    public static let answered: [ProblemCode] = [
        .idempotencyKeyInvalid, .invalidRequest, .invalidTarget, .invalidFraming, .invalidHeaderField, .unauthorized,
        .notLocal, .notFound, .unknownWorkflow, .methodNotAllowed, .projectionChanged, .handoffExpired,
        .payloadTooLarge, .uriTooLong, .requestHeaderFieldsTooLarge, .idempotencyKeyReused, .handoffRejected,
        .callbackUnavailable, .requestRejected, .providerRateLimited, .rateLimited, .internalError,
        .unsupportedTransferCoding, .providerUnavailable, .providerRejected, .providerTimeout, .requestInProgress,
        .catalogUnavailable, .serviceUnavailable, .webhookMalformed, .webhookRejected,
    ]

    /// The HTTP status this code is answered with: what the server's problem answers take their status from, and
    /// what the OpenAPI document is checked against. `nil` for ``requestRejected``, which replays the status of the
    /// refusal it repeats (a 4xx), and for a code this version does not know.
    public var status: Int? { Self.statuses[self] }

    private static let statuses: [ProblemCode: Int] = [
        .idempotencyKeyInvalid: 400, .invalidRequest: 400, .invalidTarget: 400, .invalidFraming: 400,
        .invalidHeaderField: 400, .webhookMalformed: 400,
        .unauthorized: 401, .webhookRejected: 401,
        .notLocal: 403,
        .notFound: 404, .unknownWorkflow: 404,
        .methodNotAllowed: 405,
        .projectionChanged: 409,
        .handoffExpired: 410,
        .payloadTooLarge: 413,
        .uriTooLong: 414,
        .idempotencyKeyReused: 422, .handoffRejected: 422, .callbackUnavailable: 422,
        .providerRateLimited: 429, .rateLimited: 429,
        .requestHeaderFieldsTooLarge: 431,
        .internalError: 500,
        .unsupportedTransferCoding: 501,
        .providerUnavailable: 502, .providerRejected: 502,
        .providerTimeout: 503, .requestInProgress: 503, .catalogUnavailable: 503, .serviceUnavailable: 503,
    ]
}
