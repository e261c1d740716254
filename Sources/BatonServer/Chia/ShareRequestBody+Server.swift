import BatonCore
import BatonCrypto

extension ShareRequestBody {
    /// The body forwarded to Chia: the same four members, keys sorted.
    package var forwardedBody: [UInt8] { jsonBody }

    /// A digest of the values: bodies equal as JSON (whatever the key order or spacing) have equal fingerprints.
    var fingerprint: String {
        SHA256.hexDigest(utf8: ["v1", catalogItemId, disclosureVersion, "true", affirmedAt].joined(separator: "\u{0}"))
    }
}
