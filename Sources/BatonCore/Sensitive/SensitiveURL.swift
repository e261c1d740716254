import Foundation

/// A short-lived journey URL, held exactly as received and redacted everywhere it could be printed.
///
/// The string is kept byte for byte, fragment included: a Privue `#ticket=` is what signs the user in, so nothing
/// may normalise it. `description`, `debugDescription`, `dump`, string interpolation and `Error` descriptions show
/// only ``redacted`` (scheme, host and `…`). The only way to the real string is ``revealForPresentation()``, a call
/// that is easy to grep for and belongs in a presenter or the one HTTP response that creates the URL.
///
/// It decodes from a JSON string (with the policy in the decoder's `userInfo` from ``URLPolicy/decoderUserInfo``,
/// ``URLPolicy/production`` when none) and is deliberately not `Encodable`: a journey URL never goes to disk.
public struct SensitiveURL: Sendable, Hashable, Decodable {
    private let value: String

    /// Wraps `string` if it is an absolute `https` URL (or, with `allowingSchemes`, one of those schemes; loopback
    /// `http` also passes under ``URLPolicy/development``).
    public init?(_ string: String, allowingSchemes schemes: Set<String> = ["https"], policy: URLPolicy = .production) {
        guard let scheme = Self.scheme(of: string), let host = Self.host(of: string), !host.isEmpty,
            schemes.contains(scheme)
                || (schemes.contains("https") && policy.acceptsAsSecure(scheme: scheme, host: host))
        else { return nil }
        self.value = string
    }

    /// `origin` followed by `path`, with a `/` put in between unless `path` starts with one. It cannot fail: the
    /// origin was checked, and what follows a `/` never changes the host. For a server making journey URLs on its
    /// own origin (the sandbox's providers), where the scheme may be `http`.
    package init(origin: WebOrigin, path: String) {
        self.value = origin.text + (path.utf8.first == UInt8(ascii: "/") ? path : "/" + path)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let url = SensitiveURL(string, policy: URLPolicy.of(decoder)) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected an absolute https URL")
        }
        self = url
    }

    /// The exact string received. Call only to hand the URL to a browser component or to write the one response
    /// that creates it; never log, store or send it anywhere else.
    public func revealForPresentation() -> String { value }

    /// `scheme://host/…`: safe to print.
    public var redacted: String {
        "\(Self.scheme(of: value) ?? "?")://\(Self.host(of: value) ?? "?")/…"
    }

    /// The URL's scheme, lowercased.
    public var scheme: String { Self.scheme(of: value) ?? "" }

    /// The URL's host, lowercased.
    public var host: String { Self.host(of: value) ?? "" }

    static func scheme(of string: String) -> String? {
        let utf8 = string.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), colon != utf8.startIndex,
            isASCIILetter(utf8[utf8.startIndex]),
            utf8[..<colon].allSatisfy({
                isASCIILetter($0) || isASCIIDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
            })
        else { return nil }
        return String(string[..<colon]).lowercased()
    }

    static func host(of string: String) -> String? {
        let utf8 = string.utf8
        guard let afterSeparator = indexAfterSchemeSeparator(utf8) else { return nil }
        let rest = utf8[afterSeparator...]
        let authority = rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        if authority.contains(UInt8(ascii: "@")) { return nil }
        var host = authority
        if host.first == UInt8(ascii: "[") {
            guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = host[...close]
        } else if let colon = host.lastIndex(of: UInt8(ascii: ":")) {
            host = host[..<colon]
        }
        return String(Substring(host)).lowercased()
    }

    /// The index just past the first `://` in `utf8`, found colon by colon rather than with the generic
    /// `firstRange(of:)` of `_StringProcessing` (slower on every share; docs/reliability-history.md has the figure).
    static func indexAfterSchemeSeparator(_ utf8: String.UTF8View) -> String.UTF8View.Index? {
        var index = utf8.startIndex
        while let colon = utf8[index...].firstIndex(of: UInt8(ascii: ":")) {
            let first = utf8.index(after: colon)
            if first < utf8.endIndex, utf8[first] == UInt8(ascii: "/") {
                let second = utf8.index(after: first)
                if second < utf8.endIndex, utf8[second] == UInt8(ascii: "/") { return utf8.index(after: second) }
            }
            index = first
        }
        return nil
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}

extension SensitiveURL: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { redacted }
    public var debugDescription: String { "SensitiveURL(\(redacted))" }
    public var customMirror: Mirror { Mirror(self, children: ["redacted": redacted], displayStyle: .struct) }
}
