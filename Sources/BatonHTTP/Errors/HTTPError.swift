import BatonCore

/// An error a handler throws to answer with an RFC 9457 `application/problem+json` response.
///
/// It renders itself: `{"type","title","status","code","detail"?}` plus any extra headers (`Allow`,
/// `Retry-After`). `code` is the stable machine code clients branch on; `detail` is for humans and must never carry a
/// secret or a journey URL. Any other error a handler throws becomes a generic 500 (see ``HTTPServer``).
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code.
    public var status: Int
    /// A stable machine-readable code, e.g. `idempotency_key_invalid`.
    public var code: String
    /// A short human summary; defaults to the status's reason phrase.
    public var title: String
    /// A human explanation of this occurrence, or `nil`.
    public var detail: String?
    /// Extra response headers, e.g. `Allow` on a 405 or `Retry-After` on a 503.
    public var headers: HTTPHeaders

    /// Makes an error; `title` defaults to the reason phrase of `status`.
    public init(status: Int, code: String, title: String? = nil, detail: String? = nil, headers: HTTPHeaders = [:]) {
        self.status = status
        self.code = code
        self.title = title ?? HTTPStatus.reasonPhrase(status)
        self.detail = detail
        self.headers = headers
    }

    /// Makes the error for `problem`, with the status ``ProblemCode/status`` gives it; `status` only for a code that
    /// has none of its own (``ProblemCode/requestRejected`` replays the status of the refusal it repeats).
    public init(
        _ problem: ProblemCode, status: Int? = nil, title: String? = nil, detail: String? = nil,
        headers: HTTPHeaders = [:]
    ) {
        precondition(status == nil || problem.status == nil, "\(problem) is always answered \(problem.status ?? 0)")
        guard let answered = status ?? problem.status else {
            preconditionFailure("\(problem) has no status of its own: pass the one it replays")
        }
        self.init(status: answered, code: problem.rawValue, title: title, detail: detail, headers: headers)
    }

    /// `status code: title`; never includes `detail`, which may be long.
    public var description: String { "HTTPError(\(status) \(code))" }

    /// The problem+json response for this error. `requestID`, when given, is added as the `requestId` member.
    public func response(requestID: String? = nil) -> HTTPResponse {
        var json = JSONText()
        json.field("type", "about:blank")
        json.field("title", title)
        json.field("status", status)
        json.field("code", code)
        if let detail { json.field("detail", detail) }
        if let requestID, !requestID.isEmpty { json.field("requestId", requestID) }
        var headers = self.headers
        headers.set("content-type", "application/problem+json")
        return HTTPResponse(status: status, headers: headers, body: json.finishBytes())
    }
}

extension HTTPError {
    /// 400 `bad_request`.
    public static func badRequest(code: String = "bad_request", detail: String? = nil) -> HTTPError {
        HTTPError(status: 400, code: code, detail: detail)
    }
    /// 401 `unauthorized`.
    public static func unauthorized(detail: String? = nil) -> HTTPError {
        HTTPError(.unauthorized, detail: detail, headers: ["www-authenticate": "Bearer"])
    }
    /// 404 `not_found`.
    public static let notFound = HTTPError(.notFound)
    /// 405 `method_not_allowed` with the `Allow` header listing `allowed`.
    public static func methodNotAllowed(allowed: [HTTPMethod]) -> HTTPError {
        HTTPError(
            .methodNotAllowed,
            headers: ["allow": allowed.map(\.rawValue).joined(separator: ", ")])
    }
    /// 413 `payload_too_large`.
    public static let payloadTooLarge = HTTPError(.payloadTooLarge)
    /// 414 `uri_too_long`.
    public static let uriTooLong = HTTPError(.uriTooLong)
    /// 431 `request_header_fields_too_large`.
    public static let headerFieldsTooLarge = HTTPError(.requestHeaderFieldsTooLarge)
    /// 500 `internal_error`: what any unexpected error becomes; says nothing about the cause.
    public static let internalError = HTTPError(
        .internalError, detail: "The server could not complete the request.")
    /// 503 `service_unavailable`, used while shutting down.
    public static let serviceUnavailable = HTTPError(.serviceUnavailable)
}

/// Status reason phrases (RFC 9110) for titles and logs.
enum HTTPStatus {
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "HTTP \(status)"
        }
    }
}
