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
