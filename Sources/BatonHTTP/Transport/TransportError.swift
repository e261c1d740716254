/// An outbound call that produced no HTTP response.
///
/// `kind` is what a retry policy branches on; `detail` is a short library message and never contains the URL,
/// headers or body. ``mayHaveReachedServer`` tells whether a non-idempotent request could have been processed.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Equatable {
        /// No connection could be made (refused, unreachable, name not resolved): the server saw nothing.
        case connectFailed
        /// The request's timeout passed.
        case timedOut
        /// The TLS handshake or certificate check failed.
        case tls
        /// The connection broke after it was made (reset, closed before a complete response).
        case connectionReset
        /// The response body passed the request's size limit; the download was cut off.
        case responseTooLarge
        /// Anything else (a malformed response, a bad URL, out of memory).
        case other
    }

    /// What went wrong.
    public var kind: Kind
    /// A short library message (curl's or URLSession's), safe to log.
    public var detail: String

    /// Makes an error.
    public init(_ kind: Kind, detail: String = "") {
        self.kind = kind
        self.detail = detail
    }

    /// Whether the request may have been received (only `connectFailed` and `tls` guarantee it was not).
    public var mayHaveReachedServer: Bool { kind != .connectFailed && kind != .tls }

    /// Whether retrying the same request later could succeed (everything but `tls` and `other`).
    public var isTransient: Bool { kind == .connectFailed || kind == .timedOut || kind == .connectionReset }

    public var description: String { detail.isEmpty ? "TransportError.\(kind)" : "TransportError.\(kind): \(detail)" }
}
