import BatonCore
import BatonHTTP
import BatonServer
import Foundation

/// The backend's readers of untrusted input, one entry point each, for libFuzzer (`BatonFuzz`, `make fuzz`) and for
/// the replay of kept inputs in `swift test`. Each entry reads the bytes the way the running backend does; any trap is
/// a finding, and so is a broken round trip where one is checked.
public enum UntrustedInputFuzzing {
    /// One reader of untrusted input.
    public enum Entry: String, CaseIterable, Sendable {
        /// The strict request-body reader (share, verification and connect bodies; token payloads).
        case body
        /// The bearer-token reader, and a minted token read back for any user id.
        case token
        /// Standard Webhooks headers (first three lines: id, timestamp, signature) and the event body (the rest).
        case webhook
        /// Every provider response decoder: Chia sessions and publication, Privue and BB JSON.
        case provider
        /// The configuration reader.
        case config
        /// HTTP request-target splitting into path and query, route matching and query parsing.
        case target
    }

    /// Reads `bytes` through `entry`.
    public static func run(_ entry: Entry, _ bytes: [UInt8]) async {
        switch entry {
        case .body: body(bytes)
        case .token: token(bytes)
        case .webhook: webhook(bytes)
        case .provider: await provider(bytes)
        case .config: config(bytes)
        case .target: await target(bytes)
        }
    }

    static let fixedNow = Date(timeIntervalSince1970: 1_750_000_000)
    static let authenticator = SignedTokenAuthenticator(key: Secret("baton-fuzz-token-signing-key-0123456789"))

    static func body(_ bytes: [UInt8]) {
        if let object = StrictJSONObject(anyNames: bytes) {
            for name in object.names { _ = (object.string(name), object.integer(name), object.isTrue(name)) }
        }
        // A share body that reads is forwarded to Chia re-encoded: that must read back as the same request.
        if let share = ShareRequestBody(json: bytes) {
            guard ShareRequestBody(json: share.forwardedBody) == share else {
                fatalError("a share body does not survive being forwarded")
            }
        }
        _ = VerificationHandoffRequest(json: bytes)?.workflow
        _ = ConnectSessionRequest.read(json: bytes)
    }

    static func token(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = authenticator.authenticate(bearerToken: text, now: fixedNow)
        // Whatever the user id (control characters are refused by design), a token minted for it reads back as it.
        guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return }
        let minted = authenticator.token(for: text, expiresAt: fixedNow.addingTimeInterval(60), issuedAt: fixedNow)
        guard authenticator.authenticate(bearerToken: minted, now: fixedNow)?.id == text else {
            fatalError("a minted token does not read back as its user id")
        }
    }

    static func webhook(_ bytes: [UInt8]) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 3, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        while lines.count < 4 { lines.append("") }
        let body = Array(lines[3].utf8)
        let verifier = StandardWebhookVerifier(key: Secret("baton-fuzz-webhook-key"))
        let now = Date(timeIntervalSince1970: TimeInterval(Int64(lines[1]) ?? 1_750_000_000))
        _ = try? verifier.verify(id: lines[0], timestamp: lines[1], signatures: lines[2], body: body, now: now)
        for provider in [ProviderName.privue, .bb] {
            _ = WebhookReceiver.normalise(body, provider: provider, webhookID: lines[0], receivedAt: fixedNow)
        }
    }

    /// The first byte picks the status the provider answers with; the rest is its body.
    static func provider(_ bytes: [UInt8]) async {
        let statuses = [200, 201, 304, 400, 404, 409, 410, 422, 429, 500, 503]
        let status = statuses[Int(bytes.first ?? 0) % statuses.count]
        let response = OutboundResponse(
            status: status, headers: ["content-type": "application/json", "retry-after": "1", "etag": "\"e\""],
            body: Array(bytes.dropFirst()))
        let caller = ProviderCaller(
            transport: AnsweringTransport(response: response), policy: ProviderCallPolicy(maxAttempts: 1),
            logger: Logger(sink: DiscardLogSink()), metrics: BackendMetrics(), sleep: { _ in })
        let urls = URLPolicy.development
        let origin = "http://127.0.0.1:9"
        let pins = JourneyHostPins(knownHost: "127.0.0.1:9")
        let chia = ChiaClient(origin: origin, apiKey: Secret("k"), caller: caller, urls: urls, journeyHosts: pins)
        let privue = PrivueClient(origin: origin, apiKey: Secret("k"), caller: caller, urls: urls, journeyHosts: pins)
        let bb = BBClient(
            origin: origin, apiKey: Secret("k"), clientID: "c", caller: caller, urls: urls, journeyHosts: pins)
        if let key = IdempotencyKey("0b5a7c9e-3f1d-4a2b-8c6d-1e2f3a4b5c6d") {
            let request = ShareRequestBody(
                catalogItemId: "cat", disclosureVersion: "v", affirmedAt: "2026-01-01T00:00:00Z")
            _ = try? await chia.createHandoffSession(key: key, request: request)
        }
        _ = try? await privue.createVerification(userRef: "u", workflow: "w", returnURL: "https://a.example/r")
        _ = try? await privue.createHandoff(verificationID: "v")
        _ = try? await privue.verification(id: "v")
        _ = try? await bb.createConnectSession(returnURL: "https://a.example/r")
        _ = try? await bb.connectSession(id: "s")
        _ = try? RFC3339.jsonDecoder().decode(CatalogPublication.self, from: Data(response.body))
        _ = try? CatalogSnapshotBody.decode(response.body)
    }

    static func config(_ bytes: [UInt8]) {
        let environment = [
            "BATON_TOKEN_SIGNING_KEY": "fuzz-token-signing-key-0123456789abcdef",
            "BATON_SEALING_KEY": Data(repeating: 7, count: 32).base64EncodedString(),
            "BATON_CHIA_API_KEY": "chia_test_0123456789", "BATON_PRIVUE_API_KEY": "pv_test_0123456789",
            "BATON_PRIVUE_WEBHOOK_SECRET": "whsec_" + Data(repeating: 1, count: 32).base64EncodedString(),
            "BATON_BB_API_KEY": "bb_test_0123456789", "BATON_BB_CLIENT_ID": "cli_test",
            "BATON_BB_WEBHOOK_SECRET": "whsec_" + Data(repeating: 2, count: 32).base64EncodedString(),
        ]
        _ = try? BackendConfiguration.load(json: Data(bytes), environment: environment)
    }

    static let router: Router = {
        var router = Router()
        for pattern in [
            "/v2/connect-sessions/{sessionId}", "/v2/verifications/{workflow}", "/assets/{assetId}", "/healthz",
        ] {
            router.get(pattern) { request in .text(request.parameters.values.joined(separator: ",")) }
        }
        return router
    }()

    static func target(_ bytes: [UInt8]) async {
        let request = HTTPRequest(method: .get, target: String(decoding: bytes, as: UTF8.self))
        if let query = request.query {
            _ = FormURLEncodedQuery(parsing: query).firstNonEmpty("sessionId")
        }
        _ = try? await router.respond(to: request)
    }
}

/// A provider that answers every request with one response.
private struct AnsweringTransport: HTTPTransport {
    let response: OutboundResponse

    func send(_ request: OutboundRequest) async throws -> OutboundResponse { response }
}
