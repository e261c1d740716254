/// A running HTTP/1.1 server: libmicrohttpd on one event loop per thread in front, `async` Swift handlers behind.
///
/// ```swift
/// var router = Router()
/// router.get("/healthz") { _ in .text("ok") }
/// let server = try HTTPServer.start(router: router)
/// print(server.port)                    // the ephemeral port picked
/// await server.shutdown(grace: .seconds(10))
/// ```
/// The C callback reads the request (bounded by ``HTTPServerLimits``), runs the handler in a task that prefers the
/// loop that read the request as its executor (so it wakes there after every `await`), and suspends the connection
/// while it waits, so no loop ever waits on Swift work. A handler's ``HTTPError`` renders as
/// problem+json; any other error becomes a 500 carrying only the request id.
public final class HTTPServer: Sendable {
    private let daemon: MicroHTTPDaemon

    /// The TCP port the server listens on (the one picked when the configuration asked for port 0).
    public var port: UInt16 { daemon.port }

    /// The host the server is bound to.
    public let host: String

    /// Requests read but not yet fully answered.
    public var inFlightRequests: Int { daemon.core.inFlight.count }

    private init(configuration: HTTPServerConfiguration, target: RequestPipeline.Target) throws(HTTPServerError) {
        let pipeline = RequestPipeline(target: target, logger: configuration.logger)
        self.daemon = try MicroHTTPDaemon(configuration: configuration, pipeline: pipeline)
        self.host = configuration.host
    }

    /// Starts serving `router` and returns once the socket is listening.
    public static func start(
        _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(), router: Router
    ) throws(HTTPServerError) -> HTTPServer {
        try HTTPServer(configuration: configuration, target: .router(router))
    }

    /// Starts serving with one responder for every request (no routing).
    public static func start(
        _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(), responder: @escaping HTTPResponder
    ) throws(HTTPServerError) -> HTTPServer {
        try HTTPServer(configuration: configuration, target: .responder(responder))
    }

    /// Stops accepting, lets in-flight requests finish for up to `grace`, answers any still running with 503, stops.
    ///
    /// Responses sent meanwhile carry `Connection: close`. Returns when every connection is closed. Calling it twice
    /// is harmless.
    public func shutdown(grace: Duration = .seconds(10)) async {
        let daemon = self.daemon
        daemon.core.inFlight.beginShutdown()
        await runOnOwnThread("baton.http.quiesce") { daemon.quiesce() }
        if await !daemon.core.inFlight.waitUntilIdle(timeout: grace) {
            daemon.core.inFlight.forceFinishAll()
            _ = await daemon.core.inFlight.waitUntilIdle(timeout: .seconds(1))
        }
        await runOnOwnThread("baton.http.stop") { daemon.stopNow() }
    }

    /// The URL of `path` on this server (`http://127.0.0.1:PORT/path`), for tests and logs.
    public func url(_ path: String = "/") -> String {
        let authority = host.contains(":") ? "[\(host)]" : host
        return "http://\(authority):\(port)\(path)"
    }
}

/// Why a server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// A stable machine code, e.g. `start_failed`.
    public var code: String
    /// A human explanation.
    public var reason: String

    public var description: String { "HTTPServerError(\(code)): \(reason)" }
}
