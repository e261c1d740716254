import Testing

@testable import BatonHTTP

/// The per-address connection cap counts an IPv6 client by its /64 (one subscriber or host usually holds a whole
/// /64, so counting exact addresses would let one client fill the server), an IPv4 client (also IPv4-mapped) by its
/// address.
@Suite("Connection address groups")
struct ConnectionAddressGroupTests {
    @Test(arguments: [
        ("2001:db8:1:2::a", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:DB8:0001:0002:0:0:0:1", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("203.0.113.9", "203.0.113.9"),
        ("::ffff:203.0.113.9", "203.0.113.9"),
        ("not an address", "not an address"),
    ])
    func aPeerIsCountedByItsGroup(address: String, group: String) {
        #expect(ConnectionAddressGroup.key(for: address) == group)
    }

    @Test func oneIPv6Slash64SharesOneCap() {
        let deadlines = HeaderDeadlines(timeout: .seconds(10), perAddressLimit: 2)
        let first = deadlines.opened(socket: 10, remoteAddress: "2001:db8:1:2::a")
        let second = deadlines.opened(socket: 11, remoteAddress: "2001:db8:1:2::b")
        let third = deadlines.opened(socket: 12, remoteAddress: "2001:db8:1:2:ffff::1")
        let neighbour = deadlines.opened(socket: 13, remoteAddress: "2001:db8:1:3::1")
        #expect(!first.isOverLimit)
        #expect(!second.isOverLimit)
        #expect(third.isOverLimit)
        #expect(!neighbour.isOverLimit)
        deadlines.closed(third)
        deadlines.closed(first)
        #expect(!deadlines.opened(socket: 14, remoteAddress: "2001:db8:1:2::c").isOverLimit)
    }
}
