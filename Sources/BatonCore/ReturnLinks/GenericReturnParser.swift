/// Recognises Chia's generic return link, per CONTRACTS §1 and seed 000. Never throws, never traps.
///
/// A return only when the URL splits strictly, uses `https`, carries no userinfo, its host equals the registered
/// return host (ASCII case-insensitive) and its port is the default (none written, or 443). The path, query and
/// fragment are ignored entirely: crafted values change nothing, and the route is always marketplace home.
public struct GenericReturnParser: Sendable, Hashable {
    /// The registered return host, ASCII-lowercased.
    public let registeredHost: String
    /// ``registeredHost``'s bytes and whether they are ASCII (else hosts are compared as strings), precomputed so
    /// that matching allocates nothing.
    private let registeredHostBytes: [UInt8]
    private let registeredHostIsASCII: Bool

    /// Creates a parser for `registeredHost` (for example `partner.example`); throws when it is not a bare host.
    public init(registeredHost: String) throws(ReturnURLRegistrationError) {
        guard let parts = RawURLComponents("https://\(registeredHost)"), parts.userinfo == nil, parts.port == nil,
            !parts.host.isEmpty, parts.path.isEmpty, parts.query == nil, parts.fragment == nil
        else { throw ReturnURLRegistrationError(code: .unparseableURL) }
        self.registeredHost = parts.normalizedHost
        self.registeredHostBytes = Array(self.registeredHost.utf8)
        self.registeredHostIsASCII = registeredHostBytes.allSatisfy { $0 < 0x80 }
    }

    /// Answers whether `url` is the generic return; when it is, the route is always marketplace home.
    public func parse(_ url: String) -> ReturnLinkResult<GenericReturn> {
        guard let parts = RawURLComponents(url) else { return .rejected(.unparseableURL) }
        guard parts.schemeIs("https") else { return .rejected(.notHTTPS) }
        guard parts.userinfo == nil else { return .rejected(.userinfoPresent) }
        let hostMatches =
            registeredHostIsASCII
            ? registeredHostBytes.withUnsafeBufferPointer { RawURLComponents.asciiLowercasedEquals(parts.host, $0) }
            : parts.normalizedHost == registeredHost
        guard hostMatches else { return .rejected(.unregisteredHost) }
        guard parts.effectivePort == 443 else { return .rejected(.unregisteredPort) }
        return .accepted(.marketplaceHome)
    }
}
