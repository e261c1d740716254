extension MobileHandoff {
    /// `neutral_only`: a heading, a body and one action, `Continue to Chia`, opening a neutral https URL.
    public struct NeutralOnly: Sendable, Hashable, Codable {
        /// The heading shown above the action.
        public let heading: String
        /// The explanatory body.
        public let body: String
        /// The neutral Chia page the action opens in the external browser (not a journey URL).
        public let url: HTTPSURL

        /// Always ``MobileHandoff/continueLabel``.
        public var actionLabel: String { MobileHandoff.continueLabel }

        /// Creates the neutral-only handoff.
        public init(heading: String, body: String, url: HTTPSURL) {
            self.heading = heading
            self.body = body
            self.url = url
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case mode, heading, body, actionLabel, url
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try container.rejectUnknownKeys(from: decoder)
            try container.decodeLiteral(Mode.neutralOnly.rawValue, forKey: .mode)
            heading = try container.decodeNonEmpty(forKey: .heading)
            body = try container.decodeNonEmpty(forKey: .body)
            try container.decodeLiteral(MobileHandoff.continueLabel, forKey: .actionLabel)
            url = try container.decode(HTTPSURL.self, forKey: .url)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Mode.neutralOnly.rawValue, forKey: .mode)
            try container.encode(heading, forKey: .heading)
            try container.encode(body, forKey: .body)
            try container.encode(actionLabel, forKey: .actionLabel)
            try container.encode(url, forKey: .url)
        }
    }
}
