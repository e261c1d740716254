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
    public init<Payload: Encodable>(type: String, timestamp: Date, data: Payload) {
        self.id = RandomToken.make("msg_", length: 24)
        self.type = type
        self.timestamp = timestamp
        let envelope = Envelope(type: type, timestamp: timestamp, data: data)
        // Plain Codable values with string dates always encode.
        self.body = Array(try! RFC3339.jsonEncoder().encode(envelope))
    }

    private struct Envelope<Payload: Encodable>: Encodable {
        let type: String
        let timestamp: Date
        let data: Payload
    }
}

/// Where domain state hands the events it raises; the ``WebhookDispatcher`` delivers them.
public protocol WebhookEmitter: Sendable {
    /// Queues `event` for delivery; returns at once.
    func emit(_ event: WebhookEvent)
}
