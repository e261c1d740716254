import BatonCore
import BatonCrypto
import Foundation

/// The body of `POST /v2/handoff-sessions`, read strictly: exactly
/// `{"catalogItemId","disclosureVersion","affirmed":true,"affirmedAt":"<RFC 3339>"}`, nothing more, nothing less.
public struct HandoffSessionRequest: Sendable, Hashable {
    /// The catalog item the user chose to share.
    public let catalogItemID: String
    /// The disclosure version the user affirmed.
    public let disclosureVersion: String
    /// When the user affirmed, exactly as the app sent it.
    public let affirmedAt: String

    /// Creates a request.
    public init(catalogItemID: String, disclosureVersion: String, affirmedAt: String) {
        self.catalogItemID = catalogItemID
        self.disclosureVersion = disclosureVersion
        self.affirmedAt = affirmedAt
    }

    /// Parses `body`; `nil` for anything but a JSON object with exactly the four members, non-empty strings,
    /// `affirmed` the literal `true`, and `affirmedAt` an RFC 3339 timestamp.
    public init?(json body: [UInt8]) {
        guard
            let object = StrictJSONObject(
                body, keys: ["catalogItemId", "disclosureVersion", "affirmed", "affirmedAt"]),
            let item = object.string("catalogItemId"), let version = object.string("disclosureVersion"),
            let affirmedAt = object.string("affirmedAt"), object.isTrue("affirmed"),
            item.utf8.count <= 256, version.utf8.count <= 256, RFC3339.date(from: affirmedAt) != nil
        else { return nil }
        self.init(catalogItemID: item, disclosureVersion: version, affirmedAt: affirmedAt)
    }

    /// The body forwarded to Chia: the same four members, keys sorted.
    public var forwardedBody: [UInt8] {
        ProviderJSON.encode(
            Forwarded(catalogItemId: catalogItemID, disclosureVersion: disclosureVersion, affirmedAt: affirmedAt))
    }

    /// A digest of the values: bodies equal as JSON (whatever the key order or spacing) have equal fingerprints.
    public var fingerprint: String {
        SHA256.hexDigest(utf8: ["v1", catalogItemID, disclosureVersion, "true", affirmedAt].joined(separator: "\u{0}"))
    }

    private struct Forwarded: Encodable {
        let catalogItemId: String
        let disclosureVersion: String
        let affirmed = true
        let affirmedAt: String
    }
}
