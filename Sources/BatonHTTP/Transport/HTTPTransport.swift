import Foundation

/// The seam every outbound provider call goes through: one request in, one response (any status) or a
/// ``TransportError`` out.
///
/// Implementations: ``CurlTransport`` (the server on Linux) and ``URLSessionTransport`` (Apple platforms, the app
/// side). Tests substitute their own. An HTTP error status is a response, not a thrown error; cancellation of the
/// calling task throws `CancellationError`. Implementations never log request or response headers or bodies.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the complete response.
    func send(_ request: OutboundRequest) async throws -> OutboundResponse
}

/// An outbound request, held in memory.
public struct OutboundRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute `http`/`https` URL.
    public var url: String
    /// Header fields to send (may hold keys: never log them).
    public var headers: HTTPHeaders
    /// The body bytes; empty for none.
    public var body: [UInt8]
    /// The whole exchange — connect, send, wait, receive — must finish within this.
    public var timeout: Duration
    /// When not empty, the URL's host is taken to be exactly these IP addresses and is never looked up again, so
    /// addresses checked by the caller are the ones connected to (no DNS rebinding between check and connect).
    /// ``CurlTransport`` honours it (`CURLOPT_RESOLVE`); a transport that cannot pin refuses the request.
    public var pinnedAddresses: [String] = []
    /// When set (`host:port`), the connection goes to this address instead of the URL's own, while the TLS name,
    /// certificate check and `Host` stay the URL's (as `curl --connect-to`): how `baton doctor --live` asks a
    /// deployment for each of its host names. ``CurlTransport`` honours it (`CURLOPT_CONNECT_TO`); a transport that
    /// cannot refuses the request.
    public var connectTo: String?

    /// Makes a request; the timeout defaults to 30 s.
    public init(
        method: HTTPMethod = .get, url: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
        timeout: Duration = .seconds(30)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// A complete response from an ``HTTPTransport``.
public struct OutboundResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The response header fields.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]

    /// Makes a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The parsed `Retry-After` header, if present and valid.
    public var retryAfter: RetryAfter? { headers["retry-after"].flatMap(RetryAfter.init(headerValue:)) }

    /// The body decoded as UTF-8, for tests and diagnostics (never log a provider's body).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// A parsed `Retry-After` value (RFC 9110 §10.2.3): a delay in seconds or an HTTP date.
public enum RetryAfter: Sendable, Equatable {
    /// Retry after this many seconds.
    case seconds(Int)
    /// Retry at this time.
    case date(Date)

    /// Parses a header value; `nil` when it is neither form.
    public init?(headerValue: String) {
        let text = headerValue.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy(\.isASCII), let seconds = Int(text), seconds >= 0 {
            self = .seconds(seconds)
            return
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: text) else { return nil }
        self = .date(date)
    }

    /// How long to wait from `now` (never negative).
    public func delay(from now: Date) -> Duration {
        switch self {
        case .seconds(let seconds): .seconds(seconds)
        case .date(let date): .milliseconds(max(0, Int64(date.timeIntervalSince(now) * 1000)))
        }
    }
}
