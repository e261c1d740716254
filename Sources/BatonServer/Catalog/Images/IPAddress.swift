import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A resolved IPv4 or IPv6 address, as network-order bytes, and whether it is a public unicast address.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 bytes (IPv6), network order.
    public let bytes: [UInt8]

    /// Wraps 4 or 16 bytes; `nil` for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// An IPv4 address from the C structure (always 4 bytes).
    init(_ address: in_addr) {
        var address = address
        bytes = withUnsafeBytes(of: &address) { Array($0) }
    }

    /// An IPv6 address from the C structure (always 16 bytes).
    init(_ address: in6_addr) {
        var address = address
        bytes = withUnsafeBytes(of: &address) { Array($0) }
    }

    /// Parses a literal (`127.0.0.1`, `::1`, `[::1]`); `nil` when `text` is not an address literal.
    public init?(literal text: String) {
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// The address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) stands for; otherwise itself.
    var unmapped: IPAddress {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else {
            return self
        }
        return IPAddress(bytes: Array(bytes[12..<16])) ?? self
    }

    /// Whether this is a loopback address (`127.0.0.0/8`, `::1`).
    public var isLoopback: Bool {
        let address = unmapped
        if address.bytes.count == 4 { return address.bytes[0] == 127 }
        return address.bytes == [UInt8](repeating: 0, count: 15) + [1]
    }

    /// Whether this is a globally routable unicast address: not private, loopback, link-local, shared (CGNAT),
    /// multicast, unspecified, documentation, benchmarking or otherwise reserved.
    public var isPublicUnicast: Bool {
        let address = unmapped
        let b = address.bytes
        if b.count == 4 {
            switch (b[0], b[1]) {
            case (0, _), (10, _), (127, _), (169, 254), (192, 168), (198, 18), (198, 19): return false
            case (172, 16...31), (100, 64...127): return false
            case (192, 0) where b[2] == 0 || b[2] == 2: return false
            case (198, 51) where b[2] == 100, (203, 0) where b[2] == 113: return false
            case (224...255, _): return false
            default: return true
            }
        }
        // IPv6: only global unicast 2000::/3 is public; drop documentation, 6to4/Teredo/NAT64 that embed IPv4.
        guard b[0] & 0xE0 == 0x20 else { return false }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { return false }  // 2001:db8::/32
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x00, b[3] == 0x00 { return false }  // 2001::/32 Teredo
        if b[0] == 0x20, b[1] == 0x02 { return false }  // 2002::/16 6to4
        return true
    }

    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Resolves `host` (a name or a literal) to every address the system resolver returns (none when it fails),
    /// off the cooperative thread pool (`getaddrinfo` blocks).
    @Sendable public static func systemResolve(_ host: String) async -> [IPAddress] {
        if let literal = IPAddress(literal: host) { return [literal] }
        return await withCheckedContinuation { (continuation: CheckedContinuation<[IPAddress], Never>) in
            // A thread of its own: on Linux a blocked Dispatch worker also holds back the cooperative pool.
            Thread { continuation.resume(returning: blockingResolve(host)) }.start()
        }
    }

    private static func blockingResolve(_ host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var found: [IPAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let raw = entry.pointee.ai_addr {
                switch Int32(entry.pointee.ai_family) {
                case AF_INET:
                    raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        found.append(IPAddress(pointer.pointee.sin_addr))
                    }
                case AF_INET6:
                    raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        found.append(IPAddress(pointer.pointee.sin6_addr))
                    }
                default: break
                }
            }
            cursor = entry.pointee.ai_next
        }
        return Array(Set(found)).sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    }
}
