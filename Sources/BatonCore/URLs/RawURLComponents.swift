/// The parts of an absolute `scheme://authority/path?query#fragment` URL, split strictly and never normalised.
///
/// Foundation's `URL` and `URLComponents` repair, re-encode and normalise what they are given; a return link or a
/// registered URL must be judged exactly as received. This splitter only cuts the string at the RFC 3986
/// delimiters: nothing is decoded, re-encoded or lowercased (use ``normalizedScheme`` and ``normalizedHost``).
/// It rejects (returns `nil` for) anything that is not an absolute URL with an authority, contains ASCII
/// whitespace or control characters, has a backslash in its authority, or has a port that is not a decimal number
/// up to 65535.
public struct RawURLComponents: Sendable, Hashable {
    /// The scheme as written (before `:`).
    public let scheme: Substring
    /// The userinfo before `@` in the authority, if any (even an empty one).
    public let userinfo: Substring?
    /// The host as written; an IPv6 literal keeps its brackets.
    public let host: Substring
    /// The port as a number; `nil` when absent or empty (`host:`).
    public let port: Int?
    /// The path as written, possibly empty.
    public let path: Substring
    /// The query after `?` (without it), if a `?` is present.
    public let query: Substring?
    /// The fragment after `#` (without it), if a `#` is present.
    public let fragment: Substring?

    /// Splits `string`, or returns `nil` when it is not a strictly well-formed absolute URL with an authority.
    public init?(_ string: String) {
        guard !string.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return nil }
        guard let colon = string.firstIndex(of: ":") else { return nil }
        let scheme = string[..<colon]
        guard Self.isValidScheme(scheme) else { return nil }
        let afterScheme = string[string.index(after: colon)...]
        guard afterScheme.hasPrefix("//") else { return nil }
        let authorityStart = afterScheme.index(afterScheme.startIndex, offsetBy: 2)
        let rest = afterScheme[authorityStart...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains("\\") else { return nil }

        var hostAndPort = authority
        if let at = authority.lastIndex(of: "@") {
            userinfo = authority[..<at]
            hostAndPort = authority[authority.index(after: at)...]
        } else {
            userinfo = nil
        }
        guard let (host, portText) = Self.splitHostAndPort(hostAndPort) else { return nil }
        guard Self.isValidHost(host) else { return nil }
        if let portText, !portText.isEmpty {
            guard portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                let port = Int(portText), port <= 65_535
            else { return nil }
            self.port = port
        } else {
            self.port = nil
        }

        var remainder = rest[authorityEnd...]
        if let hash = remainder.firstIndex(of: "#") {
            fragment = remainder[remainder.index(after: hash)...]
            remainder = remainder[..<hash]
        } else {
            fragment = nil
        }
        if let question = remainder.firstIndex(of: "?") {
            query = remainder[remainder.index(after: question)...]
            remainder = remainder[..<question]
        } else {
            query = nil
        }
        self.scheme = scheme
        self.host = host
        self.path = remainder
    }

    /// The scheme in ASCII lowercase.
    public var normalizedScheme: String { Self.asciiLowercased(scheme) }

    /// The host in ASCII lowercase (percent-escapes and IDNA are not touched).
    public var normalizedHost: String { Self.asciiLowercased(host) }

    /// The port, or the scheme's default port (`https` 443, `http` 80) when none is written; `nil` for a custom
    /// scheme without a port.
    public var effectivePort: Int? {
        if let port { return port }
        switch normalizedScheme {
        case "https", "wss": return 443
        case "http", "ws": return 80
        default: return nil
        }
    }

    /// The path, with an empty path read as `/` for the `http(s)` schemes, where both name the same resource.
    public var effectivePath: Substring {
        if path.isEmpty, ["https", "http"].contains(normalizedScheme) { return "/" }
        return path
    }

    static func asciiLowercased(_ text: Substring) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    private static func isValidScheme(_ scheme: Substring) -> Bool {
        guard let first = scheme.utf8.first, isASCIILetter(first) else { return false }
        return scheme.utf8.allSatisfy {
            isASCIILetter($0) || isASCIIDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
        }
    }

    /// Splits `host[:port]` or `[v6][:port]`; `nil` when the brackets are malformed.
    private static func splitHostAndPort(_ text: Substring) -> (Substring, Substring?)? {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let host = text[...close]
            let after = text[text.index(after: close)...]
            if after.isEmpty { return (host, nil) }
            guard after.hasPrefix(":") else { return nil }
            return (host, after.dropFirst())
        }
        guard let colon = text.firstIndex(of: ":") else { return (text, nil) }
        return (text[..<colon], text[text.index(after: colon)...])
    }

    /// RFC 3986 reg-name / IPv4 (unreserved, sub-delims, pct-encoded) or a bracketed IPv6 literal.
    private static func isValidHost(_ host: Substring) -> Bool {
        if host.hasPrefix("[") {
            let inner = host.dropFirst().dropLast()
            return !inner.isEmpty
                && inner.utf8.allSatisfy { isASCIIHexDigit($0) || $0 == 0x3A || $0 == 0x2E || $0 == 0x25 }
        }
        return host.utf8.allSatisfy { byte in
            isASCIILetter(byte) || isASCIIDigit(byte) || byte >= 0x80 || "-._~!$&'()*+,;=%".utf8.contains(byte)
        }
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    static func isASCIIDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    static func isASCIIHexDigit(_ byte: UInt8) -> Bool {
        isASCIIDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
