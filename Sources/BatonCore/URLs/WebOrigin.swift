/// The scheme and authority of a web server, `http(s)://host[:port]` and nothing after it, checked once so that a
/// URL made by appending a path to it always has that scheme and host.
///
/// An origin is configuration, not a secret: it prints as itself.
public struct WebOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The origin as text, e.g. `http://127.0.0.1:9001` (no trailing slash).
    public let text: String

    /// Checks `string`; `nil` unless it is `http` or `https`, has a host and no userinfo, and ends with the authority
    /// (no path, query or fragment, not even `/`).
    public init?(_ string: String) {
        guard let scheme = SensitiveURL.scheme(of: string), scheme == "http" || scheme == "https",
            let host = SensitiveURL.host(of: string), !host.isEmpty,
            let separator = string.utf8.firstRange(of: "://".utf8),
            !string.utf8[separator.upperBound...].contains(where: { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 })
        else { return nil }
        self.text = string
    }

    /// `http://127.0.0.1:<port>`: a server listening on the IPv4 loopback address.
    public static func loopback(port: UInt16) -> WebOrigin { WebOrigin(checkedText: "http://127.0.0.1:\(port)") }

    public var description: String { text }

    private init(checkedText: String) { self.text = checkedText }
}
