import BatonCore

/// The partner backend's app-facing API (CONTRACTS §2), as the flow coordinators use it.
///
/// Implementations send `Authorization: Bearer <app token>` on every call and map `application/problem+json`
/// errors to ``BackendError``. ``URLSessionBackendClient`` is the production one; tests inject fakes.
public protocol BackendClient: Sendable {
    /// `GET /v2/catalog`: the user's catalog cards (hidden items are absent).
    func catalog() async throws(BackendError) -> [CatalogCard]

    /// `POST /v2/handoff-sessions` with `Idempotency-Key: attempt.key` and exactly `attempt.body`.
    func createHandoffSession(_ attempt: PendingAttempt) async throws(BackendError) -> HandoffSession

    /// `POST /v2/verification-handoffs` `{"workflow": …}`: a fresh single-use handoff, created now.
    func createVerificationHandoff(workflow: String) async throws(BackendError) -> VerificationHandoff

    /// `GET /v2/verifications/{workflow}`: the authoritative verification state.
    func verification(workflow: String) async throws(BackendError) -> VerificationState

    /// `POST /v2/connect-sessions` `{"callback": "https" | "custom-scheme"}`.
    func createConnectSession(callback: ConnectCallback.Kind) async throws(BackendError) -> ConnectSession

    /// `GET /v2/connect-sessions/{sessionId}`: the authoritative session state.
    func connectSession(id: String) async throws(BackendError) -> ConnectSessionState
}
