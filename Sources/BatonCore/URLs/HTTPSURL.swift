/// A plain, non-secret `https` URL (a neutral page, a policy link, a mirrored image), kept exactly as given.
///
/// Valid when it splits strictly (see ``RawURLComponents``), its scheme is `https` (ASCII case-insensitive), its
/// host is non-empty and it has no userinfo. (Loopback `http` passes too, but only under ``URLPolicy/development``.)
/// Journey URLs are not this type: they are ``SensitiveURL``.
///
/// Decoding uses the policy in the decoder's `userInfo` from ``URLPolicy/decoderUserInfo`` (``URLPolicy/production``
/// when none).
public struct HTTPSURL: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The URL as given.
    public let string: String

    /// Validates `string`; `nil` unless it is an absolute `https` URL (or loopback `http` under `policy`) with a
    /// host and no userinfo.
    public init?(_ string: String, policy: URLPolicy = .production) {
        guard let parts = RawURLComponents(string), !parts.host.isEmpty, parts.userinfo == nil,
            policy.acceptsAsSecure(scheme: parts.normalizedScheme, host: parts.normalizedHost)
        else { return nil }
        self.string = string
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let url = HTTPSURL(try container.decode(String.self), policy: URLPolicy.of(decoder)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected an absolute https URL")
        }
        self = url
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }

    public var description: String { string }
}
