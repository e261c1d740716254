import BatonHTTP

/// How ``Router/test(_:configuration:_:)`` runs an application.
public enum HTTPTestMode: Sendable, CaseIterable {
    /// Requests go straight into the same pipeline the server uses (routing, middleware, error rendering), no socket.
    case inProcess
    /// A real ``HTTPServer`` on 127.0.0.1 and an ephemeral port, called through ``CurlTransport``.
    case live
}

/// Sends requests to an application under test, in-process or live, with one API.
public struct HTTPTestClient: Sendable {
    private let send: @Sendable (HTTPMethod, String, HTTPHeaders, [UInt8]) async throws -> OutboundResponse

    /// The live server's base URL (`http://127.0.0.1:PORT`), `nil` in-process.
    public let baseURL: String?

    fileprivate init(
        baseURL: String?,
        send: @escaping @Sendable (HTTPMethod, String, HTTPHeaders, [UInt8]) async throws -> OutboundResponse
    ) {
        self.baseURL = baseURL
        self.send = send
    }

    /// Sends `method` to `target` (a path with optional query) and returns the response.
    public func execute(
        _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = []
    ) async throws -> OutboundResponse {
        try await send(method, target, headers, body)
    }
}

extension Router {
    /// Runs `body` against this router, either in-process or behind a live server that is shut down afterwards.
    ///
    /// The same test written once runs both ways, so routing and rendering are proven without a socket and the
    /// socket path is proven to agree.
    public func test<Value: Sendable>(
        _ mode: HTTPTestMode, configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        _ body: (HTTPTestClient) async throws -> Value
    ) async throws -> Value {
        let router = self
        switch mode {
        case .inProcess:
            let pipeline = RequestPipeline(target: .router(router), logger: configuration.logger)
            let client = HTTPTestClient(baseURL: nil) { method, target, headers, body in
                var request = HTTPRequest(method: method, target: target, headers: headers, body: body)
                request.id = configuration.makeRequestID()
                request.remoteAddress = "127.0.0.1"
                let response = await pipeline.respond(to: request)
                return OutboundResponse(
                    status: response.status, headers: response.headers,
                    body: method == .head ? [] : response.body)
            }
            return try await body(client)
        case .live:
            let server = try HTTPServer.start(configuration, router: self)
            let transport = CurlTransport()
            let base = server.url("")
            let client = HTTPTestClient(baseURL: base) { method, target, headers, body in
                try await transport.send(
                    OutboundRequest(method: method, url: base + target, headers: headers, body: body))
            }
            do {
                let value = try await body(client)
                await server.shutdown(grace: .seconds(5))
                return value
            } catch {
                await server.shutdown(grace: .seconds(5))
                throw error
            }
        }
    }
}
