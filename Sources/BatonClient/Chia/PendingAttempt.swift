import BatonCore

/// A share request that has been (or is about to be) sent: the body and its `Idempotency-Key`. Never the URL.
///
/// Persisted (``PendingAttemptStore``) from before the first send until a success or a definitive rejection, so a
/// retry after a network error, a 429, a 5xx or an app restart sends the exact same body with the same key.
public struct PendingAttempt: Sendable, Hashable, Codable {
    /// The UUIDv4 `Idempotency-Key`.
    public let key: IdempotencyKey
    /// The exact body.
    public let body: ShareRequestBody

    /// Creates an attempt.
    public init(key: IdempotencyKey, body: ShareRequestBody) {
        self.key = key
        self.body = body
    }
}
