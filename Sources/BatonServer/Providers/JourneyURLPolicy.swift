import BatonCore

/// Which journey URLs a provider may hand back: `https` always; plain `http` only to a loopback host, and only in
/// development mode (the sandbox serves http on 127.0.0.1).
struct JourneyURLPolicy: Sendable {
    let allowsLoopbackHTTP: Bool

    /// `string` as a ``SensitiveURL`` if it is acceptable, else `nil`.
    func accept(_ string: String) -> SensitiveURL? {
        if let url = SensitiveURL(string) { return url }
        guard allowsLoopbackHTTP, let url = SensitiveURL(string, allowingSchemes: ["http"]),
            Self.isLoopback(url.host)
        else { return nil }
        return url
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "[::1]" || host.hasPrefix("127.")
    }
}
