import BatonCore
import BatonCrypto
import Foundation

/// Why a webhook delivery was refused. The description is a fixed phrase: never the body or a signature.
public enum WebhookRejection: String, Error, Sendable, Hashable, CustomStringConvertible {
    /// `webhook-id`, `webhook-timestamp` or `webhook-signature` is absent or empty.
    case missingHeaders = "missing_headers"
    /// The timestamp is not a whole number of seconds.
    case malformedTimestamp = "malformed_timestamp"
    /// The timestamp is outside the tolerance, in the past or in the future.
    case timestampOutOfTolerance = "timestamp_out_of_tolerance"
    /// No `v1,` signature in the header matches the body.
    case signatureMismatch = "signature_mismatch"

    public var description: String { "webhook rejected: \(rawValue)" }
}

/// Verifies Standard Webhooks deliveries: `webhook-signature` holds one or more space-separated `v1,<base64>`
/// signatures of `id.timestamp.body` (HMAC-SHA256 with the secret's key bytes), compared in constant time over the
/// raw body, and `webhook-timestamp` must lie within the tolerance of now in both directions.
///
/// During a rotation a previous secret is accepted too, until its window ends, so events in flight (and redeliveries)
/// signed with the old secret are not dropped.
public struct StandardWebhookVerifier: Sendable {
    private let key: Secret
    private let tolerance: TimeInterval
    private let previous: (key: Secret, until: Date)?

    /// Creates a verifier for `key` (the bytes after `whsec_`, base64-decoded), accepting timestamps within
    /// `tolerance` of now (default five minutes).
    public init(key: Secret, tolerance: TimeInterval = 300) {
        self.key = key
        self.tolerance = tolerance
        self.previous = nil
    }

    /// Creates a verifier that also accepts signatures by `previousKey` while now is before `previousUntil`.
    public init(key: Secret, previousKey: Secret?, previousUntil: Date?, tolerance: TimeInterval = 300) {
        self.key = key
        self.tolerance = tolerance
        if let previousKey, let previousUntil {
            self.previous = (previousKey, previousUntil)
        } else {
            self.previous = nil
        }
    }

    /// Checks one delivery; returns its `webhook-id` when it is authentic and fresh.
    public func verify(
        id: String?, timestamp: String?, signatures: String?, body: [UInt8], now: Date
    )
        throws(WebhookRejection) -> String
    {
        guard let id, !id.isEmpty, let timestamp, !timestamp.isEmpty, let signatures, !signatures.isEmpty else {
            throw .missingHeaders
        }
        guard timestamp.count <= 12, timestamp.allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Int64(timestamp)
        else { throw .malformedTimestamp }
        guard abs(now.timeIntervalSince1970 - TimeInterval(seconds)) <= tolerance else {
            throw .timestampOutOfTolerance
        }
        if StandardWebhookSignature.matches(signatures, id: id, timestamp: timestamp, body: body, key: key) {
            return id
        }
        guard let previous, now < previous.until,
            StandardWebhookSignature.matches(signatures, id: id, timestamp: timestamp, body: body, key: previous.key)
        else { throw .signatureMismatch }
        return id
    }

    /// The `webhook-signature` value for a delivery, as a sender would compute it (tests and tools).
    public func signature(id: String, timestamp: String, body: [UInt8]) -> String {
        StandardWebhookSignature.sign(id: id, timestamp: timestamp, body: body, key: key)
    }
}
