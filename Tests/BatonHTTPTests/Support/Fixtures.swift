import BatonHTTP

/// A configuration for tests: loopback, ephemeral port, deterministic request ids, captured logs.
func testConfiguration(
    sink: InMemoryLogSink = InMemoryLogSink(), configure: (inout HTTPServerConfiguration) -> Void = { _ in }
) -> HTTPServerConfiguration {
    var configuration = HTTPServerConfiguration()
    configuration.logger = Logger(sink: sink)
    configure(&configuration)
    return configuration
}

/// Starts a server on `router`, runs `body`, and always shuts the server down.
func withServer<T: Sendable>(
    _ configuration: HTTPServerConfiguration = testConfiguration(), router: Router, grace: Duration = .seconds(2),
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    let server = try HTTPServer.start(configuration, router: router)
    do {
        let value = try await body(server)
        await server.shutdown(grace: grace)
        return value
    } catch {
        await server.shutdown(grace: grace)
        throw error
    }
}

/// An event a handler signals and a test awaits, instead of sleeping.
final class Signal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream() }

    func fire() { continuation.yield() }

    func wait() async {
        for await _ in stream { return }
    }
}
