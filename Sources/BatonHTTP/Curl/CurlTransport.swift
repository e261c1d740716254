import Foundation
import Synchronization

/// An ``HTTPTransport`` on libcurl's multi interface.
///
/// A request sent from a handler of ``HTTPServer`` (a task running on one of the server's event loops) is driven by
/// that loop: the loop writes it, waits for the answer among its other descriptors and resumes the handler, with no
/// other thread woken. A request sent from anywhere else goes to the transport's own I/O thread.
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

    private let configuration: Configuration
    private let multi: CurlMulti
    /// This transport's key for its attachment on each event loop (never reused, unlike an object's address).
    private let id = newEventLoopAttachmentOwner()
    /// The event loops this transport has an attachment on, to detach from when it goes.
    private let loops = Mutex<[EventLoop]>([])
    /// Requests started on an event loop and on the transport's own thread (for tests).
    let startedOnLoops = Atomic(0)
    let startedOnThread = Atomic(0)

    /// Starts the I/O thread.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.multi = CurlMulti(configuration: configuration)
    }

    deinit {
        multi.stop()
        let id = self.id
        for loop in loops.withLock({ $0 }) { loop.execute { loop.detach(id) } }
    }

    public func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        let transfer = CurlTransfer(request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Runs on the calling task's thread before it suspends: on an event loop's, the loop drives it.
                if Self.drivenByLoops, let loop = EventLoop.current {
                    let attachment = self.attachment(on: loop)
                    if transfer.start(continuation, driver: .loop(loop, attachment)) {
                        startedOnLoops.add(1, ordering: .relaxed)
                        attachment.start(transfer)
                    }
                } else if transfer.start(continuation, driver: .thread(multi)) {
                    startedOnThread.add(1, ordering: .relaxed)
                    multi.submit(.start(transfer))
                }
            }
        } onCancel: {
            transfer.cancel()?.cancel(transfer)
        }
    }

    /// Whether requests sent on an event loop are driven by it (`BATON_CURL_ON_LOOPS=0`: always by the transport's own
    /// thread, for an A/B of the two).
    static let drivenByLoops = ProcessInfo.processInfo.environment["BATON_CURL_ON_LOOPS"] != "0"

    /// This transport's attachment on `loop`, made on first use. Only on `loop`'s thread.
    private func attachment(on loop: EventLoop) -> LoopCurl {
        loop.attachment(for: id) {
            loops.withLock { $0.append(loop) }
            return LoopCurl(configuration: configuration)
        }
    }
}
