import BatonCore
import Foundation

/// One webhook event: a stable id (the `webhook-id` on every attempt), its type and its JSON body.
///
/// The body is the Standard Webhooks payload shape `{"type","timestamp","data"}`, encoded once, so every retry
/// sends the same bytes.
public struct WebhookEvent: Sendable, Hashable {
    /// `msg_…`, the same on every delivery attempt.
    public let id: String
    /// `verification.updated` or `connect_session.updated`.
    public let type: String
    /// When the event happened.
    public let timestamp: Date
    /// The encoded payload.
    public let body: [UInt8]

    /// Makes an event with a fresh id whose `data` member is `data`.
    ///
    /// Written by the one JSON writer, members sorted by name (`data`, `timestamp`, `type`): it cannot fail.
    init(type: String, timestamp: Date, data: JSONValue) {
        self.id = RandomToken.make("msg_", length: 24)
        self.type = type
        self.timestamp = timestamp
        var envelope = JSONText()
        envelope.field("data", data.sortingKeys)
        envelope.field("timestamp", RFC3339.string(from: timestamp))
        envelope.field("type", type)
        self.body = envelope.finishBytes()
    }
}

/// Where domain state hands the events it raises; the ``WebhookDispatcher`` delivers them.
public protocol WebhookEmitter: Sendable {
    /// Queues `event` for delivery; returns at once.
    func emit(_ event: WebhookEvent)
}
