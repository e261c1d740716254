import BatonCore
import BatonCrypto
import Foundation

/// A Standard Webhooks signing secret, `whsec_<base64>`: the base64 part decodes to the HMAC key bytes.
public struct WebhookSecret: Sendable, Hashable, CustomStringConvertible {
    /// The whole `whsec_…` string, as a receiver is configured with it.
    public let value: Secret
    /// The HMAC-SHA256 key: the base64-decoded bytes after `whsec_`.
    public let key: Secret

    /// The prefix every secret starts with.
    public static let prefix = "whsec_"

    /// Parses `string`; `nil` unless it is `whsec_` followed by non-empty standard base64.
    public init?(_ string: String) {
        guard string.hasPrefix(Self.prefix) else { return nil }
        let encoded = String(string.dropFirst(Self.prefix.count))
        guard !encoded.isEmpty, var bytes = Data(base64Encoded: encoded).map(Array.init), !bytes.isEmpty else {
            return nil
        }
        defer { ConstantTime.wipe(&bytes) }
        self.value = Secret(string)
        self.key = Secret(bytes: bytes)
    }

    /// A fresh secret of 32 random bytes.
    public static func generate() -> WebhookSecret {
        // RAND_bytes only fails when the system has no entropy at all.
        var bytes = try! SecureRandom.bytes(count: 32)
        defer { ConstantTime.wipe(&bytes) }
        return WebhookSecret(prefix + Data(bytes).base64EncodedString())!
    }

    public var description: String { "WebhookSecret(…)" }
}
