import BatonHTTP

/// The three provider simulators, each on its own HTTP server on 127.0.0.1, sharing one configuration.
///
/// ```swift
/// let sandbox = try await ProviderSandbox.start(configuration: .generated())
/// print(sandbox.chiaOrigin, sandbox.privueOrigin, sandbox.bbOrigin)
/// await sandbox.shutdown()
/// ```
/// Every origin serves its provider's API and hosted journeys plus the control API under `/_sandbox/`
/// (docs/CONTRACTS.md §4). The servers bind only to loopback: the control API needs no key.
public final class ProviderSandbox: Sendable {
    /// The ports to bind; 0 picks a free one.
    public struct Ports: Sendable, Hashable {
        /// Chia's port.
        public var chia: UInt16
        /// Privue's port.
        public var privue: UInt16
        /// BB's port.
        public var bb: UInt16

        /// Explicit ports.
        public init(chia: UInt16, privue: UInt16, bb: UInt16) {
            self.chia = chia
            self.privue = privue
            self.bb = bb
        }

        /// Three ephemeral ports.
        public static let ephemeral = Ports(chia: 0, privue: 0, bb: 0)

        /// Chia on `base`, Privue on `base + 1`, BB on `base + 2` (`baton sandbox --port`).
        public static func consecutive(from base: UInt16) -> Ports {
            Ports(chia: base, privue: base &+ 1, bb: base &+ 2)
        }
    }

    private struct Host: Sendable {
        let server: HTTPServer
        let simulator: any ProviderSimulator
        let hangs: HangingRequests
    }

    /// The configuration the simulators run with.
    public let configuration: SandboxConfiguration
    /// Chia's origin, `http://127.0.0.1:PORT`.
    public let chiaOrigin: String
    /// Privue's origin.
    public let privueOrigin: String
    /// BB's origin.
    public let bbOrigin: String
    /// Chia's state, for in-process inspection.
    public let chia: ChiaState
    /// Privue's state.
    public let privue: PrivueState
    /// BB's state.
    public let bb: BBState
    /// Privue's webhook sender.
    public let privueWebhooks: WebhookDispatcher
    /// BB's webhook sender.
    public let bbWebhooks: WebhookDispatcher
    private let hosts: [Host]

    private init(
        configuration: SandboxConfiguration, chia: ChiaState, privue: PrivueState, bb: BBState,
        privueWebhooks: WebhookDispatcher, bbWebhooks: WebhookDispatcher, hosts: [Host]
    ) {
        self.configuration = configuration
        self.chia = chia
        self.privue = privue
        self.bb = bb
        self.privueWebhooks = privueWebhooks
        self.bbWebhooks = bbWebhooks
        self.hosts = hosts
        self.chiaOrigin = hosts[0].server.url("")
        self.privueOrigin = hosts[1].server.url("")
        self.bbOrigin = hosts[2].server.url("")
    }

    /// Starts the three servers on 127.0.0.1 and returns once all listen.
    ///
    /// - Parameters:
    ///   - transport: sends webhooks (a `CurlTransport` when `nil`).
    ///   - logger: where the servers report unexpected handler errors.
    /// - Throws: `HTTPServerError` when a port cannot be bound (servers already started are shut down).
    public static func start(
        configuration: SandboxConfiguration, ports: Ports = .ephemeral, transport: (any HTTPTransport)? = nil,
        logger: Logger = Logger()
    ) async throws -> ProviderSandbox {
        let transport = transport ?? CurlTransport()
        let privueWebhooks = WebhookDispatcher(
            secret: configuration.privueWebhookSecret, target: configuration.privueWebhookURL, transport: transport,
            policy: configuration.webhookRetry, clock: configuration.clock)
        let bbWebhooks = WebhookDispatcher(
            secret: configuration.bbWebhookSecret, target: configuration.bbWebhookURL, transport: transport,
            policy: configuration.webhookRetry, clock: configuration.clock)
        let chia = ChiaState(configuration: configuration, origin: .loopback(port: ports.chia))
        let privue = PrivueState(
            configuration: configuration, origin: .loopback(port: ports.privue), webhooks: privueWebhooks)
        let bb = BBState(configuration: configuration, origin: .loopback(port: ports.bb), webhooks: bbWebhooks)
        let simulators: [(any ProviderSimulator, UInt16)] = [
            (
                ChiaSimulator(
                    state: chia, apiKey: configuration.chiaAPIKey, genericReturnURL: configuration.chiaGenericReturnURL),
                ports.chia
            ),
            (
                PrivueSimulator(
                    state: privue, apiKey: configuration.privueAPIKey, account: configuration.privueAccount,
                    webhookDispatcher: privueWebhooks), ports.privue
            ),
            (
                BBSimulator(
                    state: bb, apiKey: configuration.bbAPIKey, clientID: configuration.bbClientID,
                    webhookDispatcher: bbWebhooks), ports.bb
            ),
        ]
        var hosts: [Host] = []
        do {
            for (simulator, port) in simulators {
                let host = try start(simulator, port: port, clock: configuration.clock, logger: logger)
                await simulator.useOrigin(.loopback(port: host.server.port))
                hosts.append(host)
            }
        } catch {
            for host in hosts { await host.server.shutdown(grace: .seconds(1)) }
            throw error
        }
        return ProviderSandbox(
            configuration: configuration, chia: chia, privue: privue, bb: bb, privueWebhooks: privueWebhooks,
            bbWebhooks: bbWebhooks, hosts: hosts)
    }

    private static func start(
        _ simulator: any ProviderSimulator, port: UInt16, clock: SandboxClock, logger: Logger
    ) throws -> Host {
        let log = RequestLog(clock: clock)
        let faults = FaultInjector()
        let hangs = HangingRequests()
        var router = Router()
        router.use(SandboxMiddleware(simulator: simulator, log: log, faults: faults, hangs: hangs))
        ControlRoutes(simulator: simulator, log: log, faults: faults, hangs: hangs, clock: clock).add(to: &router)
        simulator.addRoutes(to: &router)
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = port
        configuration.threadPoolSize = 2
        configuration.logger = logger
        return Host(server: try HTTPServer.start(configuration, router: router), simulator: simulator, hangs: hangs)
    }

    /// Points the webhook senders at new receivers (`nil`: keep events, send nothing). For a backend that starts
    /// after the sandbox and only then knows its own port.
    public func setWebhookTargets(privue: String?, bb: String?) {
        privueWebhooks.target = privue
        bbWebhooks.target = bb
    }

    /// Returns once every webhook raised so far has been delivered or has failed.
    public func waitForWebhooks() async {
        await privueWebhooks.waitUntilIdle()
        await bbWebhooks.waitUntilIdle()
    }

    /// Releases calls held by `timeout` faults, cancels webhook deliveries and stops the three servers.
    public func shutdown() async {
        for host in hosts {
            await host.hangs.releaseAll()
            host.simulator.webhooks?.reset()
        }
        for host in hosts { await host.server.shutdown(grace: .seconds(2)) }
    }
}
