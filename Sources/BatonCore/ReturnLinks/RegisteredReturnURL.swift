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
    }

    /// Whether the registered URL uses `https`.
    public var isHTTPS: Bool { scheme == "https" }

    /// Whether `candidate` is this registered URL (see the type's documentation for the rules).
    public func matches(_ candidate: RawURLComponents) -> Bool {
        candidate.userinfo == nil
            && candidate.normalizedScheme == scheme
            && candidate.normalizedHost == host
            && candidate.effectivePort == port
            && candidate.effectivePath == path
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
