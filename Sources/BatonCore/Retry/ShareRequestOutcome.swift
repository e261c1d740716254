/// What the HTTP layer observed for one share request (`POST /v2/handoff-sessions`): a response, or no response.
public enum ShareRequestOutcome: Sendable, Hashable {
    /// How a request failed without an HTTP response; in every case the server may or may not have acted on it.
    public enum TransportFailure: String, Sendable, Hashable, CaseIterable, Codable {
        /// The connection could not be established (DNS, refused, unreachable, offline).
        case connectionFailed = "connect"
        /// No complete response arrived in time.
        case timedOut = "timeout"
        /// The connection was reset or closed before a complete response.
        case connectionReset = "reset"
        /// The TLS handshake or certificate check failed.
        case tlsFailure = "tls"
    }

    /// An HTTP response arrived with `status` and the raw `Retry-After` header value, if any.
    case response(status: Int, retryAfter: String?)
    /// No HTTP response arrived.
    case transportFailure(TransportFailure)
}
