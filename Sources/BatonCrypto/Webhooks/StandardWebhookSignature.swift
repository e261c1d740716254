import BatonCore
import Foundation

/// Standard Webhooks signatures: `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`, as the sender writes
/// them into `webhook-signature` and the receiver checks them.
///
/// The one implementation of the scheme: the sandbox signs its deliveries with it and the backend verifies with it,
/// so the two cannot drift apart.
public enum StandardWebhookSignature {
    /// The `v1,<base64>` signature of `body` sent as message `id` at `timestamp` (the header's text, Unix seconds).
    public static func sign(id: String, timestamp: String, body: [UInt8], key: Secret) -> String {
        "v1," + Data(code(id: id, timestamp: timestamp, body: body, key: key)).base64EncodedString()
    }

    /// Whether any of the space-separated signatures in `header` is a `v1` signature of this message under `key`.
    ///
    /// Each candidate is compared in constant time; entries of another version, bad base64 or the wrong length are
    /// skipped.
    public static func matches(_ header: String, id: String, timestamp: String, body: [UInt8], key: Secret) -> Bool {
        let expected = code(id: id, timestamp: timestamp, body: body, key: key)
        for candidate in header.split(separator: " ") {
            guard candidate.hasPrefix("v1,"), let bytes = Data(base64Encoded: String(candidate.dropFirst(3))),
                bytes.count == expected.count
            else { continue }
            if ConstantTime.equals(Array(bytes), expected) { return true }
        }
        return false
    }

    private static func code(id: String, timestamp: String, body: [UInt8], key: Secret) -> [UInt8] {
        HMACSHA256.authenticationCode(for: Array("\(id).\(timestamp).".utf8) + body, key: key)
    }
}
