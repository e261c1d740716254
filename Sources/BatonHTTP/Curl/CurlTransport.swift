/// An ``HTTPTransport`` on libcurl's multi interface, driven by one dedicated I/O thread.
///
/// Connections are kept and reused across calls (and across tasks); each request has its own total timeout;
/// cancelling the calling task detaches the request from its connection at once and throws `CancellationError`.
/// Failures are ``TransportError``s. Nothing is logged. Create one per process (or per provider) and share it.
///
/// ```swift
/// let transport = CurlTransport()
/// let response = try await transport.send(OutboundRequest(url: "http://127.0.0.1:8080/healthz"))
/// ```
public final class CurlTransport: HTTPTransport {
    /// Tuning for a ``CurlTransport``.
    public struct Configuration: Sendable {
        /// Idle connections (and easy handles) kept for reuse.
        public var maxCachedConnections = 128
        /// Upper bound for connecting, within each request's own timeout.
        public var connectTimeout: Duration = .seconds(10)
        /// Largest response body accepted; a larger one fails with ``TransportError/Kind/other``.
        public var maxResponseBytes = 16 << 20
        /// The proxy every request goes through, as libcurl reads it (`http://proxy.internal:3128`); empty, the
        /// default, for none. Never taken from the environment: libcurl would otherwise follow `http_proxy`,
        /// `https_proxy` or `ALL_PROXY`, sending provider keys through whatever the process inherited and bypassing
        /// address pinning. A request with ``OutboundRequest/pinnedAddresses`` (the image mirror) never goes
        /// through a proxy, whatever this says: the pin is the address it must connect to.
        public var proxy = ""
        /// A PEM file of the certificate authorities to trust instead of the system's (`CURLOPT_CAINFO`), for a
        /// test CA; certificates are always verified.
        public var caFile: String?

        /// The defaults.
        public init() {}

        var connectTimeoutMilliseconds: Int {
            Int(connectTimeout.components.seconds) * 1000
                + Int(connectTimeout.components.attoseconds / 1_000_000_000_000_000)
        }
    }

    private let multi: CurlMulti

    /// Starts the I/O thread.
    public init(configuration: Configuration = Configuration()) {
        self.multi = CurlMulti(configuration: configuration)
    }

    deinit { multi.stop() }

    public func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        let transfer = CurlTransfer(request)
        let multi = self.multi
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if transfer.start(continuation) { multi.submit(.start(transfer)) }
            }
        } onCancel: {
            if transfer.cancel() { multi.submit(.cancel(transfer)) }
        }
    }
}
