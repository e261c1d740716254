import BatonCore
import BatonHTTP
import Foundation

/// Sends provider requests through an ``HTTPTransport`` with the call policy's timeout and retries, and turns what
/// came back into a final response or a ``ProviderUnavailable``.
///
/// It logs one line per operation — provider, operation, attempts, status, outcome, duration — and never a URL, a
/// header or a body (they hold keys, journey URLs and personal data).
package struct ProviderCaller: Sendable {
    let transport: any HTTPTransport
    let policy: ProviderCallPolicy
    let logger: Logger
    let metrics: BackendMetrics
    /// Waits between attempts; injected so tests do not wait.
    let sleep: @Sendable (Duration) async throws -> Void

    /// A caller sending through `transport` (package-wide for the fuzzing harness, `BatonServerFuzzing`).
    package init(
        transport: any HTTPTransport, policy: ProviderCallPolicy, logger: Logger, metrics: BackendMetrics,
        sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.transport = transport
        self.policy = policy
        self.logger = logger
        self.metrics = metrics
        self.sleep = sleep
    }

    /// What a provider sent back after retries: a final response (2xx or a definitive 4xx), or nothing usable.
    enum Exchange: Sendable {
        case response(OutboundResponse)
        case unavailable(ProviderUnavailable)
    }

    /// Sends `request`, retrying per `repeatability`. Cancellation of the calling task is rethrown.
    func send(
        _ request: OutboundRequest, provider: ProviderName, operation: ProviderOperation,
        repeatability: ProviderCallPolicy.Repeatability
    ) async throws -> Exchange {
        var request = request
        request.timeout = policy.timeout
        let clock = ContinuousClock()
        let start = clock.now
        var attempt = 0
        while true {
            attempt += 1
            let exchange: Exchange
            var mayRetry: Bool
            do {
                let response = try await transport.send(request)
                switch response.status {
                case 429:
                    exchange = .unavailable(
                        ProviderUnavailable(.rateLimited, retryAfterSeconds: Self.seconds(response)))
                    mayRetry = repeatability == .idempotent
                case 401, 403:
                    // Our credentials were refused: the operator fixes that, not the app; a later retry may work.
                    exchange = .unavailable(ProviderUnavailable(.providerError))
                    mayRetry = false
                case 200...299, 400...499:
                    exchange = .response(response)
                    mayRetry = false
                default:
                    // 5xx, and anything that is neither success nor a client error.
                    exchange = .unavailable(
                        ProviderUnavailable(.providerError, retryAfterSeconds: Self.seconds(response)))
                    mayRetry = repeatability == .idempotent && response.status >= 500
                }
            } catch let error as TransportError {
                switch error.kind {
                case .connectFailed: exchange = .unavailable(ProviderUnavailable(.unreachable))
                case .timedOut: exchange = .unavailable(ProviderUnavailable(.timedOut))
                case .tls, .connectionReset, .responseTooLarge, .other:
                    exchange = .unavailable(ProviderUnavailable(.broken))
                }
                mayRetry = repeatability == .idempotent ? error.isTransient : !error.mayHaveReachedServer
            }
            if case .unavailable(let failure) = exchange, mayRetry, attempt < policy.maxAttempts {
                try await sleep(policy.backoff(afterAttempt: attempt, retryAfterSeconds: failure.retryAfterSeconds))
                continue
            }
            let elapsed = clock.now - start
            UpstreamTime.current?.add(elapsed)
            log(provider, operation, exchange, attempts: attempt, elapsed: elapsed)
            return exchange
        }
    }

    /// Records the operation's final outcome in the metrics.
    /// Refuses a success whose journey URL (`url`) is on a host `pins` does not name: the URL never reaches an app
    /// (`unpinned_host`, answered as a 502) and one `journey_host_refused` warning names the provider, the operation
    /// and the host, never the URL.
    func pin<Value>(
        _ result: ProviderResult<Value>, to pins: JourneyHostPins, _ provider: ProviderName,
        _ operation: ProviderOperation,
        url: (Value) -> SensitiveURL
    ) -> ProviderResult<Value> {
        guard case .success(let value) = result, !pins.admits(url(value)) else { return result }
        logger.log(
            .warning, "journey_host_refused",
            [
                "provider": .string(provider.rawValue), "operation": .string(operation.rawValue),
                "host": .string(JourneyHostPins.hostOf(url(value))),
            ])
        return .unavailable(ProviderUnavailable(.unpinnedHost))
    }

    func record<Value>(_ provider: ProviderName, _ operation: ProviderOperation, _ result: ProviderResult<Value>) {
        metrics.recordProviderCall(provider, operation: operation, outcome: result.label)
    }

    /// One `provider_call` line, written straight into bytes (``LogLine``): what `Logger.log` writes for the same
    /// fields, without the dictionary, the sort and the intermediate strings.
    private func log(
        _ provider: ProviderName, _ operation: ProviderOperation, _ exchange: Exchange, attempts: Int, elapsed: Duration
    ) {
        var line = LogLine(date: logger.now(), level: .info, event: "provider_call")
        line.field("attempts", attempts)
        line.field(
            "duration_ms",
            (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12).rounded() / 1000)
        line.field("operation", operation.rawValue)
        switch exchange {
        case .response(let response):
            line.field("provider", provider.rawValue)
            line.field("status", response.status)
        case .unavailable(let failure):
            line.field("outcome", failure.reason.rawValue)
            line.field("provider", provider.rawValue)
        }
        logger.sink.write(bytes: line.finish())
    }

    private static func seconds(_ response: OutboundResponse) -> Int? {
        switch response.retryAfter {
        case .seconds(let seconds): seconds
        case .date(let date): max(0, Int(date.timeIntervalSinceNow.rounded(.up)))
        case nil: nil
        }
    }
}

/// Reading provider JSON and classifying final responses.
enum ProviderJSON {
    /// Decodes a 2xx body; `nil` when it does not have the expected shape.
    static func decode<Value: Decodable>(_ type: Value.Type, _ response: OutboundResponse) -> Value? {
        try? JSONDecoder().decode(type, from: Data(response.body))
    }

    /// The provider's machine code from an error body (`{"error":"…"}` or `{"code":"…"}`), if short and plain.
    static func errorCode(_ response: OutboundResponse) -> String? {
        struct Body: Decodable {
            let error: String?
            let code: String?
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: Data(response.body)),
            let code = body.error ?? body.code, (1...64).contains(code.count),
            code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") })
        else { return nil }
        return code
    }

    /// A final response as a typed result: 2xx decoded by `decode`, other 4xx a rejection.
    static func result<Value: Sendable>(
        _ exchange: ProviderCaller.Exchange, decode: (OutboundResponse) -> Value?
    ) -> ProviderResult<Value> {
        switch exchange {
        case .unavailable(let failure): return .unavailable(failure)
        case .response(let response) where (200...299).contains(response.status):
            guard let value = decode(response) else { return .unavailable(ProviderUnavailable(.malformedAnswer)) }
            return .success(value)
        case .response(let response):
            return .rejected(ProviderRejection(status: response.status, code: errorCode(response)))
        }
    }
}
