import BatonCore

/// Which journey URLs a provider may hand back: `https` always; plain `http` only to a loopback host, and only in
/// development mode (the sandbox serves http on 127.0.0.1). Decided by configuration, not by the task-local
/// ``URLPolicy``, so a production backend never accepts it whatever task it runs in.
struct JourneyURLPolicy: Sendable {
    let allowsLoopbackHTTP: Bool

    /// `string` as a ``SensitiveURL`` if it is acceptable, else `nil`.
    func accept(_ string: String) -> SensitiveURL? {
        if let url = SensitiveURL(string) { return url }
        guard allowsLoopbackHTTP, let url = SensitiveURL(string, allowingSchemes: ["http"]),
            URLPolicy.isLoopback(host: url.host)
        else { return nil }
        return url
    }
}
