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

    nonisolated(nonsending) public func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse
    {
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
        let upstreamMilliseconds = upstream.milliseconds
        // What `Logger.log` writes for these fields (in key order), written straight into bytes (see `LogLine`).
        var line = LogLine(date: logger.now(), level: status >= 500 ? .error : .info, event: "request")
        line.field("duration_ms", (milliseconds * 1000).rounded() / 1000)
        line.field("id", request.id)
        line.field("method", request.method.rawValue)
        line.field("route", request.route ?? "<unmatched>")
        line.field("status", status)
        if upstreamMilliseconds > 0 { line.field("upstream_ms", (upstreamMilliseconds * 1000).rounded() / 1000) }
        logger.sink.write(bytes: line.finish())
    }
}
