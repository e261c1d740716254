/// A return URL registered with a provider, and the strict test of whether a delivered URL is one of it.
///
/// Two URLs match when the scheme is equal (ASCII case-insensitive), the host is equal (ASCII case-insensitive),
/// the effective port is equal (443/80 when absent for `https`/`http`), and the path is equal exactly
/// (case-sensitive, no decoding, no dot-segment removal; an empty `https` path is `/`). Queries are not compared:
/// the app's own parameters may stay on the registered URL. A candidate with userinfo never matches. Custom-scheme
/// URLs such as `acmewallet://bb-callback` are compared the same way (scheme, host, port, path).
public struct RegisteredReturnURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as registered.
    public let string: String
    private let scheme: String
    private let host: String
    private let port: Int?
    private let path: String
    /// Precomputed at registration so that matching an ASCII candidate allocates nothing: the lowercased scheme and host
    /// as bytes, whether the host is ASCII (else hosts are compared as strings), and the port a candidate without
    /// one has (its scheme equals ours, so its default port does too).
    private let schemeBytes: [UInt8]
    private let hostBytes: [UInt8]
    private let hostIsASCII: Bool
    private let defaultPort: Int?

    /// Registers `string`; throws when it is unparseable or carries userinfo or a fragment.
    public init(_ string: String) throws(ReturnURLRegistrationError) {
        guard let parts = RawURLComponents(string) else { throw ReturnURLRegistrationError(code: .unparseableURL) }
        guard parts.userinfo == nil else { throw ReturnURLRegistrationError(code: .userinfoPresent) }
        guard parts.fragment == nil else { throw ReturnURLRegistrationError(code: .fragmentPresent) }
        self.string = string
        self.scheme = parts.normalizedScheme
        self.host = parts.normalizedHost
        self.port = parts.effectivePort
        self.path = String(parts.effectivePath)
        self.schemeBytes = Array(scheme.utf8)
        self.hostBytes = Array(host.utf8)
        self.hostIsASCII = hostBytes.allSatisfy { $0 < 0x80 }
        self.defaultPort = RawURLComponents.defaultPort(scheme: scheme[...])
    }

    /// Whether the registered URL uses `https`.
    public var isHTTPS: Bool { scheme == "https" }

    /// Whether `candidate` is this registered URL (see the type's documentation for the rules).
    ///
    /// The registered parts are normalised once, at registration; comparing an ASCII candidate allocates nothing.
    public func matches(_ candidate: RawURLComponents) -> Bool {
        guard candidate.userinfo == nil,
            schemeBytes.withUnsafeBufferPointer({ RawURLComponents.asciiLowercasedEquals(candidate.scheme, $0) }),
            (candidate.port ?? defaultPort) == port
        else { return false }
        let hostMatches =
            hostIsASCII
            ? hostBytes.withUnsafeBufferPointer { RawURLComponents.asciiLowercasedEquals(candidate.host, $0) }
            : candidate.normalizedHost == host
        return hostMatches && candidate.effectivePath == path
    }

    /// Registered return URLs are configuration, not secrets.
    public var description: String { string }
}

/// Why a return URL cannot be registered.
public struct ReturnURLRegistrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable machine code for the failure.
    public enum Code: String, Sendable, Hashable {
        /// Not a strictly well-formed absolute URL with an authority.
        case unparseableURL = "unparseable_url"
        /// The URL carries userinfo.
        case userinfoPresent = "userinfo_present"
        /// The URL carries a fragment.
        case fragmentPresent = "fragment_present"
        /// The flow requires `https` (Privue rejects custom schemes).
        case notHTTPS = "not_https"
        /// No return URL was given.
        case noneRegistered = "none_registered"
    }

    /// What is wrong.
    public let code: Code

    /// Creates an error with `code`.
    public init(code: Code) { self.code = code }

    public var description: String { "return URL cannot be registered: \(code.rawValue)" }
}
