import BatonCore
import BatonHTTP
import Foundation

/// `POST /webhooks/privue` and `POST /webhooks/bb`: Standard Webhooks receivers.
///
/// In order: verify the signature over the raw body and the timestamp (both directions) — a forgery or a stale
/// delivery is refused before anything is read; parse the envelope strictly — a malformed one is refused; store it
/// by `webhook-id` — a delivery already stored is acknowledged and not applied again; then apply it and answer 2xx.
/// The event is durable before the 2xx, so a crash after storing is recovered by the background drain. Rejections
/// change nothing.
package struct WebhookReceiver: Sendable {
    let provider: ProviderName
    let verifier: StandardWebhookVerifier
    let store: any Store
    let processor: WebhookEventProcessor
    let metrics: BackendMetrics
    let logger: Logger
    let now: @Sendable () -> Date

    func receive(_ request: HTTPRequest) async throws -> HTTPResponse {
        let webhookID: String
        do {
            webhookID = try verifier.verify(
                id: request.headers["webhook-id"], timestamp: request.headers["webhook-timestamp"],
                signatures: request.headers["webhook-signature"], body: request.body, now: now())
        } catch {
            metrics.recordWebhook(provider, result: .rejected(error))
            logRejection(error, timestamp: request.headers["webhook-timestamp"])
            switch error {
            case .missingHeaders, .malformedTimestamp:
                throw HTTPError(.webhookMalformed, detail: "Standard Webhooks headers required.")
            case .timestampOutOfTolerance, .signatureMismatch:
                throw HTTPError(.webhookRejected, detail: "The delivery could not be verified.")
            }
        }
        guard webhookID.utf8.count <= 256, let event = normalise(request.body, webhookID: webhookID) else {
            metrics.recordWebhook(provider, result: .malformedPayload)
            throw HTTPError(.webhookMalformed, detail: "The payload is not a known event shape.")
        }
        guard try await store.recordWebhookEvent(event) else {
            metrics.recordWebhook(provider, result: .duplicate)
            return try HTTPResponse.json(["status": "duplicate"])
        }
        metrics.recordWebhook(provider, result: .accepted)
        // Stored: a failure from here on is recovered by the drain, and the sender must not resend.
        try? await processor.apply(event)
        return try HTTPResponse.json(["status": "accepted"])
    }

    /// One line per refused delivery: the provider and reason, and for a timestamp outside the tolerance the skew
    /// (`skew_seconds`: the sender's timestamp minus this backend's clock, positive when the sender is ahead) so that
    /// a clock out of step reads as such. Never the body, id or signature.
    private func logRejection(_ rejection: WebhookRejection, timestamp: String?) {
        var fields: [String: LogValue] = [
            "provider": .string(provider.rawValue), "reason": .string(rejection.rawValue),
        ]
        if rejection == .timestampOutOfTolerance, let seconds = timestamp.flatMap({ Int64($0) }) {
            fields["skew_seconds"] = .int(Int(seconds - Int64(now().timeIntervalSince1970.rounded(.down))))
        }
        logger.log(.warning, "webhook_rejected", fields)
    }

    /// The envelope `{"type","timestamp","data"}` reduced to what the backend keeps; `nil` when malformed (`data` must
    /// be an object for every event type, known or not, as the OpenAPI document says).
    func normalise(_ body: [UInt8], webhookID: String) -> WebhookEventRecord? {
        Self.normalise(body, provider: provider, webhookID: webhookID, receivedAt: now())
    }

    /// ``normalise(_:webhookID:)`` for `provider`, received at `receivedAt` (also the fuzzing entry point).
    package static func normalise(
        _ body: [UInt8], provider: ProviderName, webhookID: String, receivedAt: Date
    ) -> WebhookEventRecord? {
        struct Envelope: Decodable {
            let type: String
            let timestamp: String
            let data: AnyObjectShape
        }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(body)),
            RFC3339.date(from: envelope.timestamp) != nil, (1...128).contains(envelope.type.utf8.count)
        else { return nil }
        let payload: [UInt8]
        switch (provider, envelope.type) {
        case (.privue, "verification.updated"):
            struct PrivueDelivery: Decodable {
                struct Verification: Decodable {
                    let id: String
                    let status: String
                    let updatedAt: String
                    enum CodingKeys: String, CodingKey {
                        case id, status
                        case updatedAt = "updated_at"
                    }
                }
                let data: Verification
            }
            guard let data = try? JSONDecoder().decode(PrivueDelivery.self, from: Data(body)).data, !data.id.isEmpty,
                !data.status.isEmpty, RFC3339.date(from: data.updatedAt) != nil
            else { return nil }
            payload =
                WebhookEventProcessor.PrivueUpdate(id: data.id, status: data.status, updatedAt: data.updatedAt)
                .jsonBody
        case (.bb, "connect_session.updated"):
            struct BBDelivery: Decodable { let data: BBClient.StateBody }
            guard let data = try? JSONDecoder().decode(BBDelivery.self, from: Data(body)).data,
                let sessionID = data.sessionId, !sessionID.isEmpty, let updatedAt = data.updatedAt,
                RFC3339.date(from: updatedAt) != nil, let state = BBClient.state(data)
            else { return nil }
            payload =
                WebhookEventProcessor.BBUpdate(
                    sessionId: sessionID, status: state.status, connectionId: state.connectionID, error: state.error,
                    updatedAt: updatedAt
                ).jsonBody
        default:
            payload = Array("{}".utf8)
        }
        return WebhookEventRecord(
            provider: provider, webhookID: webhookID, eventType: envelope.type, payload: payload,
            receivedAt: receivedAt)
    }
}

/// Decodes only when the value is a JSON object, whatever its members.
private struct AnyObjectShape: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws { _ = try decoder.container(keyedBy: AnyKey.self) }
}
