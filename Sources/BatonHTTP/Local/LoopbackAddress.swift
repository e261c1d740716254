import BatonCore

/// Whether a peer address, as libmicrohttpd formats it (`inet_ntop`), is this machine.
enum LoopbackAddress {
    /// `127.0.0.0/8` (also IPv4-mapped, `::ffff:127.0.0.1`) and `::1`; nothing else, however it starts.
    static func isLoopback(_ address: String) -> Bool {
        if address == "::1" { return true }
        let mapped = "::ffff:"
        let ipv4 = address.lowercased().hasPrefix(mapped) ? String(address.dropFirst(mapped.count)) : address
        // URLPolicy.isLoopback also takes the names `localhost` and `[::1]`, which a peer address never is.
        return ipv4.first?.isNumber == true && URLPolicy.isLoopback(host: ipv4)
    }
}
