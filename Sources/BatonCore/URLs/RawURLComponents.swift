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
    ///
    /// ASCII input (nearly every URL) is split byte by byte (see `ASCIICuts`); any other input takes the
    /// `Character`-level path below, whose grapheme clustering the byte split could not reproduce.
    public init?(_ string: String) {
        // 0 when every byte is printable ASCII; 0x80 set by a non-ASCII byte, 0x01 by whitespace or a control.
        let kinds = Self.withBytes(string[...]) { bytes in
            bytes.reduce(into: UInt8(0)) { kinds, byte in
                kinds |= (byte & 0x80) | (byte <= 0x20 || byte == 0x7F ? 1 : 0)
            }
        }
        guard kinds & 1 == 0 else { return nil }
        if kinds == 0 {
            guard let cuts = Self.withBytes(string[...], ASCIICuts.init(bytes:)) else { return nil }
            let utf8 = string.utf8
            func text(_ range: Range<Int>) -> Substring {
                let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
                return string[start..<utf8.index(start, offsetBy: range.count)]
            }
            scheme = text(cuts.scheme)
            userinfo = cuts.userinfo.map(text)
            host = text(cuts.host)
            port = cuts.port
            path = text(cuts.path)
            query = cuts.query.map(text)
            fragment = cuts.fragment.map(text)
        } else {
            guard let parts = Self(characterSplitting: string) else { return nil }
            self = parts
        }
    }

    /// The `Character`-level split, for input with non-ASCII bytes (and none of whitespace or controls). For ASCII
    /// input it gives exactly what the byte split gives (the tests check this on random input).
    init?(characterSplitting string: String) {
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
    public var effectivePort: Int? { port ?? Self.defaultPort(scheme: scheme) }

    /// The path, with an empty path read as `/` for the `http(s)` schemes, where both name the same resource.
    public var effectivePath: Substring {
        if path.isEmpty, schemeIs("https") || schemeIs("http") { return "/" }
        return path
    }

    /// The default port of `scheme` (ASCII case-insensitive): 443 for `https` and `wss`, 80 for `http` and `ws`.
    static func defaultPort(scheme: Substring) -> Int? {
        if schemeIs("https", scheme) || schemeIs("wss", scheme) { return 443 }
        if schemeIs("http", scheme) || schemeIs("ws", scheme) { return 80 }
        return nil
    }

    /// Whether the scheme is `lowercased` (an ASCII-lowercase literal), compared without allocating.
    func schemeIs(_ lowercased: StaticString) -> Bool { Self.schemeIs(lowercased, scheme) }

    private static func schemeIs(_ lowercased: StaticString, _ scheme: Substring) -> Bool {
        asciiLowercasedEquals(
            scheme, UnsafeBufferPointer(start: lowercased.utf8Start, count: lowercased.utf8CodeUnitCount))
    }

    /// Whether `asciiLowercased(text) == String(decoding: lowercased, as: UTF8.self)` for ASCII `lowercased`:
    /// compared byte by byte while `text` is ASCII (ASCII strings are equal exactly when their bytes are), else as
    /// strings, whose equality is canonical equivalence (`;` equals U+037E, for example).
    static func asciiLowercasedEquals(_ text: Substring, _ lowercased: UnsafeBufferPointer<UInt8>) -> Bool {
        let answer: Bool? = withBytes(text) { text in
            guard text.allSatisfy({ $0 < 0x80 }) else { return nil }
            return text.count == lowercased.count
                && zip(text, lowercased).allSatisfy { ((0x41...0x5A).contains($0) ? $0 + 0x20 : $0) == $1 }
        }
        return answer ?? (asciiLowercased(text) == String(decoding: lowercased, as: UTF8.self))
    }

    static func asciiLowercased(_ text: Substring) -> String {
        guard text.utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return String(text) }
        return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
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
