import BatonClient
import BatonCore
import Foundation
import Synchronization

/// The app's real ``BackendClient`` with every call written to the transcript as `METHOD route → status`; routes are
/// printed as patterns, so no opaque id, URL or key appears. It also counts share requests and the keys they used,
/// so the demo can check "one request" and "the same key" without printing the key.
final class TranscribingBackendClient: BackendClient {
    let client: any BackendClient
    let transcript: DemoTranscript
    private let shareKeys = Mutex<[IdempotencyKey]>([])

    init(client: any BackendClient, transcript: DemoTranscript) {
        self.client = client
        self.transcript = transcript
    }

    /// The `Idempotency-Key` of every share request sent, in order.
    var sentShareKeys: [IdempotencyKey] { shareKeys.withLock { $0 } }

    private func call<T>(
        _ route: String, _ body: () async throws(BackendError) -> T, describe: (T) -> String
    ) async throws(BackendError) -> T {
        do {
            let value = try await body()
            transcript.step("backend", "\(route) → \(describe(value))")
            return value
        } catch {
            transcript.step("backend", "\(route) → \(Self.describe(error))")
            throw error
        }
    }

    static func describe(_ error: BackendError) -> String {
        switch error.kind {
        case .http(let status, let code, let retryAfter):
            "\(status)\(code.map { " \($0)" } ?? "")\(retryAfter.map { " (Retry-After \($0))" } ?? "")"
        default: "failed (\(error.kind))"
        }
    }

    func catalog() async throws(BackendError) -> [CatalogCard] {
        try await call("GET /v2/catalog", { () async throws(BackendError) in try await client.catalog() }) {
            "200, \($0.count) cards"
        }
    }

    func createHandoffSession(_ attempt: PendingAttempt) async throws(BackendError) -> HandoffSession {
        shareKeys.withLock { $0.append(attempt.key) }
        return try await call(
            "POST /v2/handoff-sessions (Idempotency-Key …)",
            { () async throws(BackendError) in try await client.createHandoffSession(attempt) }
        ) { "201, journey \($0.url.redacted)" }
    }

    func createVerificationHandoff(workflow: String) async throws(BackendError) -> VerificationHandoff {
        try await call(
            "POST /v2/verification-handoffs",
            { () async throws(BackendError) in try await client.createVerificationHandoff(workflow: workflow) }
        ) { "200, handoff \($0.url.redacted)" }
    }

    func verification(workflow: String) async throws(BackendError) -> VerificationState {
        try await call(
            "GET /v2/verifications/{workflow}",
            { () async throws(BackendError) in try await client.verification(workflow: workflow) }
        ) { "200, status \($0.status.rawValue)" }
    }

    func createConnectSession(callback: ConnectCallback.Kind) async throws(BackendError) -> ConnectSession {
        try await call(
            "POST /v2/connect-sessions",
            { () async throws(BackendError) in try await client.createConnectSession(callback: callback) }
        ) { "201, hosted flow \($0.hostedURL.redacted)" }
    }

    func connectSession(id: String) async throws(BackendError) -> ConnectSessionState {
        try await call(
            "GET /v2/connect-sessions/{sessionId}",
            { () async throws(BackendError) in try await client.connectSession(id: id) }
        ) { "200, status \($0.status.rawValue)" }
    }
}
