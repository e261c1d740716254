import BatonCore
import Foundation

/// The exact body of `POST /v2/handoff-sessions` (CONTRACTS §2):
/// `{"catalogItemId","disclosureVersion","affirmed":true,"affirmedAt":"<RFC 3339>"}`.
///
/// `affirmedAt` is kept as the string first sent, so a retry (even after an app restart) sends the same bytes.
public struct ShareRequestBody: Sendable, Hashable, Codable {
    /// The catalog item the user chose.
    public let catalogItemId: String
    /// The disclosure version the user affirmed.
    public let disclosureVersion: String
    /// Always `true`: the body exists only after an affirmative tap.
    public let affirmed: Bool
    /// When the user affirmed, RFC 3339 in UTC.
    public let affirmedAt: String

    /// Creates the body for an affirmative tap at `affirmedAt`.
    public init(catalogItemId: String, disclosureVersion: String, affirmedAt: Date) {
        self.catalogItemId = catalogItemId
        self.disclosureVersion = disclosureVersion
        self.affirmed = true
        self.affirmedAt = RFC3339.string(from: affirmedAt)
    }

    /// The JSON bytes sent: keys sorted, slashes unescaped, so the same body always encodes to the same bytes.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding four plain fields cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }
}

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
