import BatonCore
import BatonCrypto
import Foundation

/// The body of Chia's `POST /v2/handoff-sessions`, read strictly:
/// exactly `{"catalogItemId","disclosureVersion","affirmed":true,"affirmedAt":"<RFC 3339>"}`.
public struct ChiaHandoffRequest: Sendable, Hashable {
    /// The catalog item the user selected.
    public let catalogItemID: String
    /// The disclosure version the user affirmed.
    public let disclosureVersion: String
    /// When the user affirmed, as sent.
    public let affirmedAt: String

    /// Creates a request.
    public init(catalogItemID: String, disclosureVersion: String, affirmedAt: String) {
        self.catalogItemID = catalogItemID
        self.disclosureVersion = disclosureVersion
        self.affirmedAt = affirmedAt
    }

    /// Parses `body`; `nil` when it is not a JSON object with exactly the four members, `affirmed` is not `true`,
    /// a string is empty, or `affirmedAt` is not RFC 3339.
    public init?(json body: [UInt8]) {
        guard
            let object = StrictJSONObject(
                body, keys: ["catalogItemId", "disclosureVersion", "affirmed", "affirmedAt"]),
            let item = object.string("catalogItemId"), let version = object.string("disclosureVersion"),
            let affirmedAt = object.string("affirmedAt"), object.isTrue("affirmed"),
            RFC3339.date(from: affirmedAt) != nil
        else { return nil }
        self.init(catalogItemID: item, disclosureVersion: version, affirmedAt: affirmedAt)
    }

    /// A digest of the request's values: equal bodies (whatever their key order or spacing) have equal digests.
    public var fingerprint: String {
        SHA256.hexDigest(utf8: [catalogItemID, disclosureVersion, "true", affirmedAt].joined(separator: "\u{0}"))
    }
}
