import BatonCore
import Foundation

/// A Standard Webhooks signing secret, `whsec_<base64>`: the base64 part decodes to the HMAC key bytes.
///
/// The one parser of such secrets: the backend reads its receiving secrets with it, the sandbox its sending ones, and
/// `baton doctor` judges the key bytes it yields.
public struct WebhookSecret: Sendable, Hashable, CustomStringConvertible {
    /// The whole `whsec_…` string, as a receiver is configured with it.
    public let value: Secret
    /// The HMAC-SHA256 key: the base64-decoded bytes after `whsec_`.
    public let key: Secret

    /// The prefix every secret starts with.
    public static let prefix = "whsec_"

    /// The fewest key bytes accepted (192 bits); providers issue 24 to 64.
    public static let minimumKeyByteCount = 24

    /// Parses `string`; `nil` unless it is `whsec_` followed by standard base64 of at least
    /// ``minimumKeyByteCount`` bytes.
    public init?(_ string: String) {
        guard string.hasPrefix(Self.prefix),
            var bytes = Data(base64Encoded: String(string.dropFirst(Self.prefix.count))).map(Array.init)
        else { return nil }
        defer { ConstantTime.wipe(&bytes) }
        guard bytes.count >= Self.minimumKeyByteCount else { return nil }
        self.value = Secret(string)
        self.key = Secret(bytes: bytes)
    }

    /// A fresh secret of 32 random bytes from the system's cryptographically secure generator
    /// (`SystemRandomNumberGenerator`: `getrandom` on Linux), whose API has no failure to handle.
    public static func generate() -> WebhookSecret {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        defer { ConstantTime.wipe(&bytes) }
        let key = Secret(bytes: bytes)
        return WebhookSecret(value: Secret(prefix + Data(bytes).base64EncodedString()), key: key)
    }

    private init(value: Secret, key: Secret) {
        self.value = value
        self.key = key
    }

    public var description: String { "WebhookSecret(…)" }
}
