/// The just-in-time disclosure a catalog item carries, as published (values are checked by the decision).
public struct CatalogDisclosure: Sendable, Hashable, Codable {
    /// Who receives a shared selection, as published.
    public struct Recipient: Sendable, Hashable, Codable {
        /// The recipient's legal name.
        public var legalName: String
        /// The recipient's privacy contact.
        public var privacyContact: String

        /// Creates a recipient.
        public init(legalName: String, privacyContact: String) {
            self.legalName = legalName
            self.privacyContact = privacyContact
        }

        enum CodingKeys: String, CodingKey {
            case legalName = "legal_name"
            case privacyContact = "privacy_contact"
        }
    }

    /// The disclosure heading.
    public var heading: String
    /// The disclosure body.
    public var body: String
    /// Who receives the selection.
    public var recipient: Recipient
    /// What is shared.
    public var dataShared: [String]
    /// Why it is shared.
    public var purpose: String
    /// How the partner is compensated.
    public var compensationDisclosure: String
    /// Policy links by name; each must be https for the item to be shareable.
    public var policyURLs: [String: String]
    /// The version the user affirms.
    public var disclosureVersion: String

    /// Creates a disclosure.
    public init(
        heading: String, body: String, recipient: Recipient, dataShared: [String], purpose: String,
        compensationDisclosure: String, policyURLs: [String: String], disclosureVersion: String
    ) {
        self.heading = heading
        self.body = body
        self.recipient = recipient
        self.dataShared = dataShared
        self.purpose = purpose
        self.compensationDisclosure = compensationDisclosure
        self.policyURLs = policyURLs
        self.disclosureVersion = disclosureVersion
    }

    enum CodingKeys: String, CodingKey {
        case heading, body, recipient, dataShared, purpose, compensationDisclosure
        case policyURLs = "policyUrls"
        case disclosureVersion
    }

    /// The `share_or_neutral` handoff for this disclosure, or `nil` when a required value is empty or a policy
    /// link is not https.
    public func shareOrNeutralHandoff(
        neutralURL: HTTPSURL, urls: URLPolicy = .production
    ) -> MobileHandoff.ShareOrNeutral? {
        guard !heading.isEmpty, !body.isEmpty, !recipient.legalName.isEmpty, !recipient.privacyContact.isEmpty,
            !disclosureVersion.isEmpty, !dataShared.isEmpty
        else { return nil }
        var policies: [String: HTTPSURL] = [:]
        for (name, link) in policyURLs {
            guard let url = HTTPSURL(link, policy: urls) else { return nil }
            policies[name] = url
        }
        return MobileHandoff.ShareOrNeutral(
            heading: heading, body: body,
            recipient: HandoffRecipient(legalName: recipient.legalName, privacyContact: recipient.privacyContact),
            dataShared: dataShared, purpose: purpose, compensationDisclosure: compensationDisclosure,
            policyURLs: policies, disclosureVersion: disclosureVersion, neutralURL: neutralURL)
    }
}
