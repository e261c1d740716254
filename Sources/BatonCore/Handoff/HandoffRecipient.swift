/// Who receives the user's selection when they share (seed 000 `recipient`).
public struct HandoffRecipient: Sendable, Hashable, Codable {
    /// The recipient's legal name.
    public let legalName: String
    /// Where the user reaches the recipient about privacy (an address or URL, shown as given).
    public let privacyContact: String

    /// Creates a recipient.
    public init(legalName: String, privacyContact: String) {
        self.legalName = legalName
        self.privacyContact = privacyContact
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case legalName = "legal_name"
        case privacyContact = "privacy_contact"
    }

    /// Decodes strictly: both fields required and non-empty, no other key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try container.rejectUnknownKeys(from: decoder)
        legalName = try container.decodeNonEmpty(forKey: .legalName)
        privacyContact = try container.decodeNonEmpty(forKey: .privacyContact)
    }
}
