import Foundation

/// `201` of `POST /v2/handoff-sessions`: `{"expiresAt","url"}`, the short-lived Chia journey URL. Opened once, never
/// stored.
public struct HandoffSession: Sendable, Hashable, Decodable {
    /// The `phs_…` journey URL.
    public let url: SensitiveURL
    /// When the URL stops working.
    public let expiresAt: Date?

    /// Creates a handoff session.
    public init(url: SensitiveURL, expiresAt: Date?) {
        self.url = url
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case url
        case expiresAt
    }

    /// Reads the body; `expiresAt` is RFC 3339 (an unreadable one is taken as unknown).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(SensitiveURL.self, forKey: .url)
        expiresAt = try container.decodeIfPresent(String.self, forKey: .expiresAt).flatMap(RFC3339.date(from:))
    }

    /// The response body, keys sorted; the URL is revealed here and nowhere else on the server.
    package var jsonBody: [UInt8] {
        var json = JSONText()
        json.field("expiresAt", expiresAt.map(RFC3339.string(from:)))
        json.journeyURL("url", url)
        return json.finishBytes()
    }
}
