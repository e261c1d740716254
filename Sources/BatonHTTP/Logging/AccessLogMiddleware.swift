/// Writes one JSON line per request: `{"ts","level","event":"request","id","method","route","status","duration_ms"}`,
/// plus `upstream_ms` when the request waited on provider calls (see ``UpstreamTime``).
///
/// It logs the route *pattern*, never the raw path (which may hold ids), and never headers, query or body. A thrown
/// error is logged with the status it will render as, then rethrown for the server to render.
public struct AccessLogMiddleware: HTTPMiddleware {
    private let logger: Logger
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Logs to `logger`, timing requests with `now` (tests inject a clock they move by hand).
    public init(logger: Logger, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.logger = logger
        self.now = now
    }

    public func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse {
        let start = now()
        let upstream = UpstreamTime()
        do {
            let response = try await UpstreamTime.$current.withValue(upstream) { try await next(request) }
            write(request, status: response.status, since: start, upstream: upstream)
            return response
        } catch {
            write(request, status: (error as? HTTPError)?.status ?? 500, since: start, upstream: upstream)
            throw error
        }
    }

    private func write(
        _ request: HTTPRequest, status: Int, since start: ContinuousClock.Instant, upstream: UpstreamTime
    ) {
        let elapsed = now() - start
        let milliseconds =
            Double(elapsed.components.seconds) * 1000
            + Double(elapsed.components.attoseconds) / 1e15
        var fields: [String: LogValue] = [
            "id": .string(request.id),
            "method": .string(request.method.rawValue),
            "route": .string(request.route ?? "<unmatched>"),
            "status": .int(status),
            "duration_ms": .double((milliseconds * 1000).rounded() / 1000),
        ]
        let upstreamMilliseconds = upstream.milliseconds
        if upstreamMilliseconds > 0 { fields["upstream_ms"] = .double((upstreamMilliseconds * 1000).rounded() / 1000) }
        logger.log(status >= 500 ? .error : .info, "request", fields)
    }
}
