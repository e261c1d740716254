/// `outcome` of `baton_idempotency_outcomes_total`: how a share (`POST /v2/handoff-sessions`) was answered.
public enum IdempotencyOutcome: String, Sendable, Hashable, CaseIterable {
    /// A new provider session was created.
    case created
    /// A claim abandoned by another instance was taken over and the session created.
    case tookOver = "took_over"
    /// The stored answer of an earlier request with the same key and body.
    case replayed
    /// The answer of the first request, waited for.
    case joined
    /// The first request was still running: this one waited for it.
    case waiting
    /// Waiting for the first request ran out of time (`503 request_in_progress`).
    case joinTimeout = "join_timeout"
    /// The stored answer has expired (`410` or a replayed refusal).
    case expired
    /// The `Idempotency-Key` is not a random UUIDv4.
    case invalidKey = "invalid_key"
    /// The body is not a share request.
    case invalidRequest = "invalid_request"
    /// The key was used with another body.
    case keyReused = "key_reused"
    /// The item's offer changed (`409 projection_changed`).
    case projectionChanged = "projection_changed"
    /// The provider refused the share.
    case providerRejected = "provider_rejected"
    /// The provider could not be used right now.
    case providerRetryable = "provider_retryable"
}

/// `result` of `baton_webhook_verifications_total`: what became of one delivery.
public enum WebhookResult: Sendable, Hashable {
    /// Verified, stored and applied.
    case accepted
    /// Verified, but its `webhook-id` was already stored.
    case duplicate
    /// Verified, but not an event shape the backend knows.
    case malformedPayload
    /// Refused by the signature check, for this reason.
    case rejected(WebhookRejection)

    /// The label value.
    var label: String {
        switch self {
        case .accepted: "accepted"
        case .duplicate: "duplicate"
        case .malformedPayload: "malformed_payload"
        case .rejected(let rejection): rejection.rawValue
        }
    }
}

/// `operation` of `baton_provider_calls_total` and of the `provider_call` log line: one call the backend makes to a
/// provider.
public enum ProviderOperation: String, Sendable, Hashable, CaseIterable {
    /// Chia: `POST /v2/handoff-sessions`.
    case createHandoffSession = "create_handoff_session"
    /// Privue: `POST /verifications`.
    case createVerification = "create_verification"
    /// Privue: `POST /verifications/{id}/handoff`.
    case createHandoff = "create_handoff"
    /// Privue: `GET /verifications/{id}`.
    case getVerification = "get_verification"
    /// BB: `POST /v2/connect-sessions`.
    case createConnectSession = "create_connect_session"
    /// BB: `GET /v2/connect-sessions/{id}`.
    case getConnectSession = "get_connect_session"
}
