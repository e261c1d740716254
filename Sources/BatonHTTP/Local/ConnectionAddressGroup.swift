#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the per-address connection cap counts a peer as: an IPv6 peer by its /64, an IPv4 peer (also IPv4-mapped,
/// `::ffff:203.0.113.9`) by its address.
///
/// One IPv6 subscriber or host is usually given a whole /64 and can pick any address in it, so counting exact IPv6
/// addresses would let one client open `maxConnectionsPerAddress` connections from each of 2^64 addresses.
enum ConnectionAddressGroup {
    /// The group `address` (as libmicrohttpd formats a peer, `inet_ntop`) is counted in: `2001:db8:1:2::/64`, or the
    /// IPv4 address; anything that does not parse is its own group.
    static func key(for address: String) -> String {
        let mapped = "::ffff:"
        if address.lowercased().hasPrefix(mapped), !address.dropFirst(mapped.count).contains(":") {
            return String(address.dropFirst(mapped.count))
        }
        guard address.contains(":") else { return address }
        // A zone (`fe80::1%eth0`) does not change the prefix.
        let literal = address.split(separator: "%", maxSplits: 1).first.map(String.init) ?? address
        var bytes = [UInt8](repeating: 0, count: 16)
        let parsed = bytes.withUnsafeMutableBytes { inet_pton(AF_INET6, literal, $0.baseAddress) }
        guard parsed == 1 else { return address }
        let groups = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
        }
        // Trailing zero groups of the prefix fold into the `::` that ends it.
        var prefix = groups
        while prefix.count > 1, prefix.last == "0" { prefix.removeLast() }
        return prefix.joined(separator: ":") + "::/64"
    }
}
