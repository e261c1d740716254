import BatonCore
import Foundation

/// Folds stored webhook events into the verification and connect-session records.
///
/// Events are stored in a normalised form (only the id, status and timestamps the backend uses: never a journey
/// URL or anything else the provider sent). Applying one twice is harmless: the store orders updates by the
/// provider's `updatedAt` and ignores older ones.
struct WebhookEventProcessor: Sendable {
    let store: any Store
    let now: @Sendable () -> Date

    /// A normalised Privue `verification.updated` event.
    struct PrivueUpdate: Codable, Sendable {
        let id: String
        let status: String
        let updatedAt: String

        /// The stored payload, keys sorted.
        var jsonBody: [UInt8] {
            var json = JSONText()
            json.field("id", id)
            json.field("status", status)
            json.field("updatedAt", updatedAt)
            return json.finishBytes()
        }
    }

    /// A normalised BB `connect_session.updated` event, with Baton's status already mapped.
    struct BBUpdate: Codable, Sendable {
        let sessionId: String
        let status: ConnectSessionState.Status
        let connectionId: String?
        let error: String?
        let updatedAt: String

        /// The stored payload, keys sorted; absent optional members are left out.
        var jsonBody: [UInt8] {
            var json = JSONText()
            if let connectionId { json.field("connectionId", connectionId) }
            if let error { json.field("error", error) }
            json.field("sessionId", sessionId)
            json.field("status", status.rawValue)
            json.field("updatedAt", updatedAt)
            return json.finishBytes()
        }
    }

    /// Applies `event` and marks it processed. A value the store refuses to bind (text with NUL, which PostgreSQL
    /// cannot hold) names no stored row: the event is marked processed, never retried forever ahead of the others.
    func apply(_ event: WebhookEventRecord) async throws {
        do {
            try await fold(event)
        } catch let error as StoreError where error.code == .invalidArgument {}
        _ = try await store.markWebhookEventProcessed(
            provider: event.provider, webhookID: event.webhookID, processedAt: now())
    }

    private func fold(_ event: WebhookEventRecord) async throws {
        switch (event.provider, event.eventType) {
        case (.privue, "verification.updated"):
            if let update = try? JSONDecoder().decode(PrivueUpdate.self, from: Data(event.payload)),
                let updatedAt = RFC3339.date(from: update.updatedAt)
            {
                _ = try await store.updateVerification(
                    id: update.id, status: VerificationStatus(rawValue: update.status), updatedAt: updatedAt)
            }
        case (.bb, "connect_session.updated"):
            if let update = try? JSONDecoder().decode(BBUpdate.self, from: Data(event.payload)),
                let updatedAt = RFC3339.date(from: update.updatedAt)
            {
                _ = try await store.updateConnectSession(
                    id: update.sessionId, status: update.status, connectionID: update.connectionId,
                    error: update.error, updatedAt: updatedAt)
            }
        default:
            break  // An event type this backend does not use: stored, acknowledged, nothing to fold in.
        }
    }

    /// Processes events whose inline processing did not finish (a crash after storing), oldest first.
    /// Returns how many were applied.
    @discardableResult
    func drain(owner: String, limit: Int = 50) async throws -> Int {
        let now = now()
        let events = try await store.claimWebhookEvents(
            owner: owner, leaseUntil: now.addingTimeInterval(60), now: now, limit: limit)
        for event in events { try await apply(event) }
        return events.count
    }
}
