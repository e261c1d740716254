import BatonCore

/// The hosts a provider's journey URL may have (`<provider>.journeyHosts`): a URL a provider answers with on any other
/// host never reaches an app.
///
/// A journey URL is opened in a browser (Chia, BB) or in the camera web view (Privue), so a compromised or spoofed
/// provider answer must not be able to send users anywhere it likes. Each pin is a host (`verify.privue.ai`: port
/// https on 443) or `host:port` (`127.0.0.1:8082`, the sandbox's simulators); hosts compare case-insensitively and exactly
/// (no subdomain wildcard); a URL with userinfo (`https://verify.privue.ai@elsewhere.example/`) never matches.
public struct JourneyHostPins: Sendable, Hashable, CustomStringConvertible {
    /// `host` or `host:port`, lowercased, as configured.
    public let pins: [String]

    /// The pins `entries` name; `nil` when one is not a host or `host:port` (no scheme, path or userinfo).
    public init?(_ entries: [String]) {
        var pins: [String] = []
        for entry in entries {
            guard let parts = RawURLComponents("https://" + entry), parts.userinfo == nil, parts.path.isEmpty,
                parts.query == nil, parts.fragment == nil, !parts.host.isEmpty
            else { return nil }
            pins.append(parts.normalizedHost + (parts.port.map { ":\($0)" } ?? ""))
        }
        guard !pins.isEmpty else { return nil }
        self.pins = pins
    }

    /// One pin written in the code (a default, a fixture): `host` must be what ``init(_:)`` would keep of it, a lowercase
    /// `host` or `host:port` (`JourneyHostPinningTests` checks every one the code writes).
    package init(knownHost host: StaticString) {
        pins = ["\(host)"]
    }

    /// The pin for the host (and non-default port) of `origin` (`https://api.example:8443` → `api.example:8443`).
    public static func pin(forOrigin origin: String) -> String? {
        guard let parts = RawURLComponents(origin), !parts.host.isEmpty else { return nil }
        let port = parts.port.flatMap { $0 == Self.defaultPort(parts.normalizedScheme) ? nil : $0 }
        return parts.normalizedHost + (port.map { ":\($0)" } ?? "")
    }

    /// Whether `url`'s host (and port) is one of the pins.
    public func admits(_ url: SensitiveURL) -> Bool { admits(url.revealForPresentation()) }

    /// Whether the URL string's host (and port) is one of the pins; never true with userinfo.
    public func admits(_ url: String) -> Bool {
        guard let parts = RawURLComponents(url), parts.userinfo == nil, let port = parts.effectivePort else {
            return false
        }
        let host = parts.normalizedHost
        // A bare host pins https on 443; anything else (the sandbox's loopback http) names its port.
        let standard = parts.normalizedScheme == "https" && port == 443
        return pins.contains { pin in
            pin == "\(host):\(port)" || (pin == host && standard)
        }
    }

    private static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "https": 443
        case "http": 80
        default: nil
        }
    }

    /// The host (and port) of `url` as a pin would name it, for the refusal's log line (never the URL itself).
    static func hostOf(_ url: SensitiveURL) -> String {
        pin(forOrigin: url.revealForPresentation()).map { String($0.prefix(255)) } ?? "?"
    }

    public var description: String { pins.joined(separator: ", ") }
}
