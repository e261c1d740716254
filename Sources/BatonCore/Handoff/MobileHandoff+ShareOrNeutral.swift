extension MobileHandoff {
    /// `share_or_neutral`: the just-in-time disclosure with two equally usable actions.
    ///
    /// `primary` posts the selection to ``MobileHandoff/sessionCreationPath`` with ``disclosureVersion``;
    /// `secondary` opens ``neutralURL`` without sharing.
    public struct ShareOrNeutral: Sendable, Hashable, Codable {
        /// The disclosure heading.
        public let heading: String
        /// The disclosure body.
        public let body: String
        /// Who receives the selection.
        public let recipient: HandoffRecipient
        /// What is shared, one line each.
        public let dataShared: [String]
        /// Why it is shared.
        public let purpose: String
        /// How the partner is compensated.
        public let compensationDisclosure: String
        /// Policy links by name (for example `privacy`), each an https URL.
        public let policyURLs: [String: HTTPSURL]
        /// The disclosure version the user affirms; sent back in the share request.
        public let disclosureVersion: String
        /// The neutral page `Continue without sharing` opens (not a journey URL).
        public let neutralURL: HTTPSURL

        /// Creates the share-or-neutral handoff.
        public init(
            heading: String, body: String, recipient: HandoffRecipient, dataShared: [String], purpose: String,
            compensationDisclosure: String, policyURLs: [String: HTTPSURL], disclosureVersion: String,
            neutralURL: HTTPSURL
        ) {
            self.heading = heading
            self.body = body
            self.recipient = recipient
            self.dataShared = dataShared
            self.purpose = purpose
            self.compensationDisclosure = compensationDisclosure
            self.policyURLs = policyURLs
            self.disclosureVersion = disclosureVersion
            self.neutralURL = neutralURL
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case mode, heading, body, recipient, dataShared, purpose, compensationDisclosure
            case policyURLs = "policyUrls"
            case primary, secondary
        }

        enum PrimaryKeys: String, CodingKey, CaseIterable {
            case actionLabel, sessionCreationPath, disclosureVersion
        }

        enum SecondaryKeys: String, CodingKey, CaseIterable {
            case actionLabel, url
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try container.rejectUnknownKeys(from: decoder)
            try container.decodeLiteral(Mode.shareOrNeutral.rawValue, forKey: .mode)
            heading = try container.decodeNonEmpty(forKey: .heading)
            body = try container.decodeNonEmpty(forKey: .body)
            recipient = try container.decode(HandoffRecipient.self, forKey: .recipient)
            dataShared = try container.decode([String].self, forKey: .dataShared)
            purpose = try container.decode(String.self, forKey: .purpose)
            compensationDisclosure = try container.decode(String.self, forKey: .compensationDisclosure)
            policyURLs = try container.decode([String: HTTPSURL].self, forKey: .policyURLs)

            let primaryDecoder = try container.superDecoder(forKey: .primary)
            let primary = try primaryDecoder.container(keyedBy: PrimaryKeys.self)
            try primary.rejectUnknownKeys(from: primaryDecoder)
            try primary.decodeLiteral(MobileHandoff.shareLabel, forKey: .actionLabel)
            try primary.decodeLiteral(MobileHandoff.sessionCreationPath, forKey: .sessionCreationPath)
            disclosureVersion = try primary.decodeNonEmpty(forKey: .disclosureVersion)

            let secondaryDecoder = try container.superDecoder(forKey: .secondary)
            let secondary = try secondaryDecoder.container(keyedBy: SecondaryKeys.self)
            try secondary.rejectUnknownKeys(from: secondaryDecoder)
            try secondary.decodeLiteral(MobileHandoff.continueWithoutSharingLabel, forKey: .actionLabel)
            neutralURL = try secondary.decode(HTTPSURL.self, forKey: .url)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Mode.shareOrNeutral.rawValue, forKey: .mode)
            try container.encode(heading, forKey: .heading)
            try container.encode(body, forKey: .body)
            try container.encode(recipient, forKey: .recipient)
            try container.encode(dataShared, forKey: .dataShared)
            try container.encode(purpose, forKey: .purpose)
            try container.encode(compensationDisclosure, forKey: .compensationDisclosure)
            try container.encode(policyURLs, forKey: .policyURLs)
            var primary = container.nestedContainer(keyedBy: PrimaryKeys.self, forKey: .primary)
            try primary.encode(MobileHandoff.shareLabel, forKey: .actionLabel)
            try primary.encode(MobileHandoff.sessionCreationPath, forKey: .sessionCreationPath)
            try primary.encode(disclosureVersion, forKey: .disclosureVersion)
            var secondary = container.nestedContainer(keyedBy: SecondaryKeys.self, forKey: .secondary)
            try secondary.encode(MobileHandoff.continueWithoutSharingLabel, forKey: .actionLabel)
            try secondary.encode(neutralURL, forKey: .url)
        }
    }
}
