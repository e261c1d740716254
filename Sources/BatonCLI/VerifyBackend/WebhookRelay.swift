import BatonHTTP

/// A local webhook target the kit points the sandbox at: it passes every delivery on to the backend's receiver
/// unchanged and keeps what it saw, so the kit can replay a delivery the sandbox signed and send forged copies of it.
final class WebhookRelay: Sendable {
    /// One delivery as the sandbox sent it, and the backend's answer.
    struct Delivery: Sendable {
        let provider: String
        let headers: HTTPHeaders
        let body: [UInt8]
        let backendStatus: Int
    }

    private actor Log {
        var deliveries: [Delivery] = []
        func append(_ delivery: Delivery) { deliveries.append(delivery) }
    }

    private let server: HTTPServer
    private let log: Log

    private init(server: HTTPServer, log: Log) {
        self.server = server
        self.log = log
    }

    /// The URL to give the sandbox for `provider`'s webhooks (`privue` or `bb`).
    func target(_ provider: String) -> String { server.url("/" + provider) }

    /// The backend's receiver path for `provider` (docs/CONTRACTS.md §2: `POST /webhooks/privue`, `/webhooks/bb`).
    static func receiver(_ base: String, _ provider: String) -> String { base + "/webhooks/" + provider }

    /// Starts on an ephemeral 127.0.0.1 port, forwarding to `base`'s receivers through `http`.
    static func start(forwardingTo base: String, http: VerifyHTTP) throws -> WebhookRelay {
        let log = Log()
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.threadPoolSize = 1
        let server = try HTTPServer.start(configuration) { request in
            let provider = String(request.path.dropFirst())
            guard request.method == .post, ["privue", "bb"].contains(provider) else { return HTTPResponse(status: 404) }
            var headers = HTTPHeaders()
            for field in request.headers
            where ["content-type", "webhook-id", "webhook-timestamp", "webhook-signature"].contains(
                field.name.lowercased())
            {
                headers.add(field.name.lowercased(), field.value)
            }
            let reply: VerifyReply
            do {
                reply = try await http.send(
                    .post, receiver(base, provider), headers: headers, body: request.body)
            } catch {
                await log.append(Delivery(provider: provider, headers: headers, body: request.body, backendStatus: 0))
                return HTTPResponse(status: 502)
            }
            await log.append(
                Delivery(provider: provider, headers: headers, body: request.body, backendStatus: reply.status))
            return HTTPResponse(status: reply.status, body: reply.body)
        }
        return WebhookRelay(server: server, log: log)
    }

    /// Every delivery so far, oldest first.
    func deliveries() async -> [Delivery] { await log.deliveries }

    func stop() async { await server.shutdown(grace: .seconds(1)) }
}
