import Foundation

/// The exact body of `POST /v2/handoff-sessions` (CONTRACTS §2):
/// `{"catalogItemId","disclosureVersion","affirmed":true,"affirmedAt":"<RFC 3339>"}`.
///
/// The app writes it (``jsonData()``), the backend reads it strictly (``init(json:)``) and forwards the same members
/// to Chia. `affirmedAt` is kept as the string first sent, so a retry (even after an app restart) sends the same
/// bytes.
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
        self.init(
            catalogItemId: catalogItemId, disclosureVersion: disclosureVersion,
            affirmedAt: RFC3339.string(from: affirmedAt))
    }

    /// Creates the body with `affirmedAt` exactly as first sent.
    public init(catalogItemId: String, disclosureVersion: String, affirmedAt: String) {
        self.catalogItemId = catalogItemId
        self.disclosureVersion = disclosureVersion
        self.affirmed = true
        self.affirmedAt = affirmedAt
    }

    /// Reads `body` strictly; `nil` for anything but a JSON object with exactly the four members, non-empty strings
    /// of at most 256 bytes, `affirmed` the literal `true`, and `affirmedAt` an RFC 3339 timestamp.
    /// The members a share body has, exactly (built once, not per request).
    private static let memberNames: Set<String> = ["catalogItemId", "disclosureVersion", "affirmed", "affirmedAt"]

    package init?(json body: [UInt8]) {
        guard
            let object = StrictJSONObject(body, keys: Self.memberNames),
            let item = object.string("catalogItemId"), let version = object.string("disclosureVersion"),
            let affirmedAt = object.string("affirmedAt"), object.isTrue("affirmed"),
            item.utf8.count <= 256, version.utf8.count <= 256, RFC3339.date(from: affirmedAt) != nil
        else { return nil }
        self.init(catalogItemId: item, disclosureVersion: version, affirmedAt: affirmedAt)
    }

    /// The JSON bytes: keys sorted, slashes unescaped, so the same body always encodes to the same bytes.
    package var jsonBody: [UInt8] {
        var json = JSONText()
        json.field("affirmed", affirmed)
        json.field("affirmedAt", affirmedAt)
        json.field("catalogItemId", catalogItemId)
        json.field("disclosureVersion", disclosureVersion)
        return json.finishBytes()
    }

    /// The JSON bytes sent (``jsonBody`` as `Data`).
    public func jsonData() -> Data { Data(jsonBody) }
}
