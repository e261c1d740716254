import BatonCrypto
import Foundation

/// Standard Webhooks signing: `webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`, where
/// the key is the base64-decoded part of the `whsec_…` secret.
public enum WebhookSigner {
    /// The `v1,<base64>` signature of `body` sent as message `id` at `timestamp` (Unix seconds).
    public static func signature(secret: WebhookSecret, id: String, timestamp: Int, body: [UInt8]) -> String {
        StandardWebhookSignature.sign(id: id, timestamp: String(timestamp), body: body, key: secret.key)
    }

    /// The three headers of one delivery attempt: `webhook-id`, `webhook-timestamp`, `webhook-signature`.
    public static func headers(
        secret: WebhookSecret, id: String, timestamp: Int, body: [UInt8]
    ) -> [(
        String, String
    )] {
        [
            ("webhook-id", id), ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", signature(secret: secret, id: id, timestamp: timestamp, body: body)),
        ]
    }
}
