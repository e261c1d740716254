/// Where the contracts require `https`, whether plain `http` to this machine is accepted too: a value passed
/// explicitly to every check that needs it.
///
/// The local provider sandbox serves its APIs and hosted journeys over plain `http` on 127.0.0.1, so a backend and
/// an app running against it meet `http://127.0.0.1:PORT/…` where production only ever has `https`. Rather than
/// weaken the check everywhere, each check takes a policy: under ``development`` (chosen by `baton serve --sandbox`,
/// `baton demo`, a configuration's `development.allowLoopbackHTTP`, and the tests that need it) ``HTTPSURL`` and
/// ``SensitiveURL`` also accept `http` whose host is a loopback address (`127.0.0.0/8`, `[::1]`, `localhost`) — the
/// one plain-http target RFC 8252 §7.3 treats as safe. Under ``production``, the default everywhere, only `https` is
/// accepted. Being a value, the choice cannot be lost on the way into a detached task or a C callback, and a
/// production backend never accepts loopback `http` whatever task it runs in.
public struct URLPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Whether loopback `http` passes where `https` is required.
    public let allowsLoopbackHTTP: Bool

    /// Only `https`.
    public static let production = URLPolicy(allowsLoopbackHTTP: false)
    /// `https`, and plain `http` to a loopback host (the local sandbox).
    public static let development = URLPolicy(allowsLoopbackHTTP: true)

    /// ``development`` when `allowsLoopbackHTTP`, else ``production``.
    public init(allowsLoopbackHTTP: Bool) {
        self.allowsLoopbackHTTP = allowsLoopbackHTTP
    }

    /// The key under which a `Decoder`'s `userInfo` carries the policy that ``HTTPSURL`` and ``SensitiveURL`` decode
    /// with. (The standard library's initializer is failable though it never fails; without a key every decoder
    /// decodes under ``production``, the safe side.)
    private static let userInfoKey = CodingUserInfoKey(rawValue: "baton.urlPolicy")

    /// The `userInfo` entry that makes ``HTTPSURL`` and ``SensitiveURL`` decode under this policy: merge it into a
    /// decoder's `userInfo`. A decoder without it decodes under ``production``.
    public var decoderUserInfo: [CodingUserInfoKey: any Sendable] {
        Self.userInfoKey.map { [$0: self] } ?? [:]
    }

    /// The policy `decoder` was given with ``decoderUserInfo``; ``production`` when none.
    public static func of(_ decoder: any Decoder) -> URLPolicy {
        guard let key = userInfoKey, let policy = decoder.userInfo[key] as? URLPolicy else { return .production }
        return policy
    }

    /// Whether a URL with this (lowercased) scheme and host passes where `https` is required.
    public func acceptsAsSecure(scheme: String, host: String) -> Bool {
        scheme == "https" || (scheme == "http" && allowsLoopbackHTTP && Self.isLoopback(host: host))
    }

    /// `string` as a journey URL if this policy accepts it: `https` always; plain `http` only to a loopback host,
    /// and only under ``development``.
    public func journeyURL(_ string: String) -> SensitiveURL? {
        SensitiveURL(string, policy: self)
    }

    public var description: String { allowsLoopbackHTTP ? "development" : "production" }

    /// Whether `host` (lowercased, IPv6 in brackets) names this machine.
    ///
    /// Dotted-quad octets are ASCII digits only: `Character.isNumber` would also admit other scripts' digits, which
    /// `Int(_:)` cannot read.
    public static func isLoopback(host: String) -> Bool {
        if host == "localhost" || host == "[::1]" { return true }
        var octets = 0
        var value = 0
        var digits = 0
        var first = -1
        for byte in host.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, octets < 3 else { return false }
                if octets == 0 { first = value }
                octets += 1
                value = 0
                digits = 0
            } else {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 3 else { return false }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                guard value <= 255 else { return false }
            }
        }
        return octets == 3 && digits > 0 && first == 127
    }
}
