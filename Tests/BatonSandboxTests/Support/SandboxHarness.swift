import BatonCore
import BatonCrypto
import BatonHTTP
import BatonTestSupport
import Foundation
import Synchronization
import Testing

@testable import BatonSandbox

/// A running sandbox with a manual clock, fixed keys and a curl client; shut down after `body`.
struct Harness: Sendable {
    let sandbox: ProviderSandbox
    let clock: ManualClock
    let transport: CurlTransport
    let sleeps: SleepRecorder

    static let chiaKey = "chia_test_key"
    static let privueKey = "pv_test_key"
    static let bbKey = "bb_test_key"
    static let bbClient = "cli_test"
    static let privueSecret = "whsec_" + Data("privue-secret-bytes-0123456789ab".utf8).base64EncodedString()
    static let bbSecret = "whsec_" + Data("bb-secret-bytes-0123456789abcdef".utf8).base64EncodedString()

    static func configuration(clock: ManualClock, sleeps: SleepRecorder) throws -> SandboxConfiguration {
        var retry = WebhookRetryPolicy()
        retry.maxAttempts = 4
        retry.sleep = { duration in sleeps.record(duration) }
        return try SandboxConfiguration(
            chiaAPIKey: Secret(chiaKey), privueAPIKey: Secret(privueKey), bbAPIKey: Secret(bbKey),
            bbClientID: Secret(bbClient), privueWebhookSecret: WebhookSecret(privueSecret)!,
            bbWebhookSecret: WebhookSecret(bbSecret)!, privueReturnURLs: ["https://app.example.com/kyc/done"],
            bbReturnURLs: ["https://app.example.com/bb-callback?app=1", "acmewallet://bb-callback"],
            privueAccount: "acme", webhookRetry: retry, clock: SandboxClock { clock.now })
    }

    static func run<T: Sendable>(
        configure: (inout SandboxConfiguration) -> Void = { _ in }, _ body: (Harness) async throws -> T
    ) async throws -> T {
        let clock = ManualClock()
        let sleeps = SleepRecorder()
        var configuration = try configuration(clock: clock, sleeps: sleeps)
        configure(&configuration)
        let transport = CurlTransport()
        let sandbox = try await ProviderSandbox.start(configuration: configuration, transport: transport)
        let harness = Harness(sandbox: sandbox, clock: clock, transport: transport, sleeps: sleeps)
        do {
            let value = try await body(harness)
            await sandbox.shutdown()
            return value
        } catch {
            await sandbox.shutdown()
            throw error
        }
    }

    func send(
        _ method: HTTPMethod, _ url: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
        timeout: Duration = .seconds(10)
    ) async throws -> OutboundResponse {
        try await transport.send(
            OutboundRequest(method: method, url: url, headers: headers, body: body, timeout: timeout))
    }

    func json(
        _ method: HTTPMethod, _ url: String, headers: HTTPHeaders = [:], _ object: [String: Any]
    ) async throws -> OutboundResponse {
        var headers = headers
        headers.set("content-type", "application/json")
        let body = try JSONSerialization.data(withJSONObject: object)
        return try await send(method, url, headers: headers, body: Array(body))
    }

    func form(
        _ url: String, headers: HTTPHeaders = [:], _ fields: [(String, String)]
    ) async throws
        -> OutboundResponse
    {
        var headers = headers
        headers.set("content-type", "application/x-www-form-urlencoded")
        let body = fields.map { "\(URLQueryAppending.encode($0.0))=\(URLQueryAppending.encode($0.1))" }
            .joined(separator: "&")
        return try await send(.post, url, headers: headers, body: Array(body.utf8))
    }

    var chiaAuth: HTTPHeaders { ["authorization": "Bearer \(Self.chiaKey)"] }
    var privueAuth: HTTPHeaders { ["authorization": "Bearer \(Self.privueKey)"] }
    var bbAuth: HTTPHeaders { ["x-api-key": Self.bbKey, "x-client-id": Self.bbClient] }

    func state(_ origin: String) async throws -> [String: Any] {
        try object(try await send(.get, origin + "/_sandbox/state"))["state"] as! [String: Any]
    }

    func requests(_ origin: String) async throws -> [[String: Any]] {
        try object(try await send(.get, origin + "/_sandbox/requests"))["requests"] as! [[String: Any]]
    }
}

/// The JSON object of a response body.
func object(_ response: OutboundResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
}

/// Records the waits a webhook sender asked for, returning at once.
final class SleepRecorder: Sendable {
    private let durations = Mutex<[Duration]>([])

    func record(_ duration: Duration) { durations.withLock { $0.append(duration) } }

    var all: [Duration] { durations.withLock { $0 } }
}

/// Emits nothing anywhere: keeps events for assertions.
final class RecordingEmitter: WebhookEmitter {
    private let events = Mutex<[WebhookEvent]>([])

    func emit(_ event: WebhookEvent) { events.withLock { $0.append(event) } }

    var all: [WebhookEvent] { events.withLock { $0 } }
}
