/// Where the contracts require `https`, whether plain `http` to this machine is accepted too.
///
/// The local provider sandbox serves its APIs and hosted journeys over plain `http` on 127.0.0.1, so a backend and
/// an app running against it meet `http://127.0.0.1:PORT/…` where production only ever has `https`. Rather than
/// weaken the check everywhere, the allowance is scoped to a task: inside
/// `URLPolicy.$allowsLoopbackHTTP.withValue(true) { … }` (set by `baton serve --sandbox`, `baton demo` and the
/// tests that need it) ``HTTPSURL`` and ``SensitiveURL`` also accept `http` whose host is a loopback address
/// (`127.0.0.0/8`, `[::1]`, `localhost`) — the one plain-http target RFC 8252 §7.3 treats as safe. Everywhere else,
/// and by default, only `https` is accepted.
public enum URLPolicy {
    /// Whether loopback `http` is accepted in the current task. Off unless a caller scoped it on.
    @TaskLocal public static var allowsLoopbackHTTP = false

    /// Whether a URL with this (lowercased) scheme and host passes where `https` is required.
    public static func acceptsAsSecure(scheme: String, host: String) -> Bool {
        scheme == "https" || (scheme == "http" && allowsLoopbackHTTP && isLoopback(host: host))
    }

    /// Whether `host` (lowercased, IPv6 in brackets) names this machine.
    public static func isLoopback(host: String) -> Bool {
        if host == "localhost" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && Int($0)! <= 255 }
    }
}
