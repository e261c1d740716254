import Foundation
import Synchronization

/// How an ``HTTPServer`` listens and what it refuses.
public struct HTTPServerConfiguration: Sendable {
    /// The IPv4 or IPv6 literal to bind; loopback unless told otherwise.
    public var host: String = "127.0.0.1"
    /// The port to bind; 0 picks a free one (read it back from ``HTTPServer/port``).
    public var port: UInt16 = 0
    /// Event loops: threads that read requests and run their handlers (each request on the one that read it);
    /// defaults to the number of cores.
    public var threadPoolSize: Int = ProcessInfo.processInfo.activeProcessorCount
    /// Size, time and connection limits.
    public var limits = HTTPServerLimits()
    /// Where the server reports unexpected handler errors (by type name only).
    public var logger = Logger()
    /// Refuse (400) HTTP/1.1 requests without `Host` and request targets containing spaces.
    public var strictParsing = true
    /// Makes the id of each request (echoed as `x-request-id`); inject a deterministic one in tests.
    public var makeRequestID: @Sendable () -> String = RequestIDGenerator.shared.next

    /// The defaults: 127.0.0.1, an ephemeral port, one worker per core.
    public init() {}
}

/// The limits an ``HTTPServer`` enforces; each has a clear answer instead of a crash or a hang.
public struct HTTPServerLimits: Sendable {
    /// Largest accepted request body; larger is 413 (checked against `Content-Length` up front, and while reading).
    public var maxBodyBytes: Int = 1 << 20
    /// A body declared (by `Content-Length`) over ``maxBodyBytes`` but at most this large is read and thrown away
    /// before the 413, so that a client which sends its whole body before reading gets the answer rather than a
    /// connection reset. A larger declared body, or one whose client sent `Expect: 100-continue`, is refused at once,
    /// before any of it is read. Reading is bounded in time by ``bodyTimeout`` too.
    public var maxDiscardedBodyBytes: Int = 32 << 20
    /// Longest accepted request target (path and query); longer is 414.
    public var maxURLBytes: Int = 8 * 1024
    /// Most header fields accepted; more is 431.
    public var maxHeaderCount: Int = 100
    /// Per-connection memory for the request line, headers and read buffer. A request whose line and headers do not
    /// fit is refused by libmicrohttpd with 431 (or 414 when the request line alone is too long). libmicrohttpd
    /// zeroes this pool before every request on a kept-alive connection, so it is kept small: 16 KiB holds an 8 KiB
    /// target and 100 ordinary header fields (64 KiB cost 0.8 µs of CPU per request, measured).
    public var connectionMemoryBytes: Int = 16 * 1024
    /// A connection with no traffic for this long is closed (whole seconds, at least 1).
    public var idleTimeout: Duration = .seconds(30)
    /// A connection whose request headers are not complete this long after it was accepted (or, on a kept-alive
    /// connection, after the next request's first byte arrived: seen within a quarter of this, at most 1 s) is
    /// closed, however steadily bytes trickle in (a slow-drip client). An idle kept-alive connection, which sends
    /// nothing, is closed by ``idleTimeout`` instead.
    public var headerTimeout: Duration = .seconds(10)
    /// A request body still arriving after this long is cut off (a slow-drip upload).
    public var bodyTimeout: Duration = .seconds(30)
    /// Most simultaneous connections; further ones are accepted and closed at once.
    public var maxConnections: Int = 1024
    /// Most simultaneous connections from one client IP address (0: no limit); one more is accepted and closed at
    /// once, unanswered. Behind a reverse proxy on another host every client shares the proxy's address: raise this
    /// above the proxy's connection pool, or set 0 and let the proxy limit its clients.
    public var maxConnectionsPerAddress: Int = 128
    /// Whether loopback peers are outside ``maxConnectionsPerAddress``: a reverse proxy on this host reaches the
    /// server from a loopback address on behalf of every client, and limiting it would limit everyone.
    public var exemptsLoopbackFromAddressLimit = true
    /// The listen backlog.
    public var listenBacklog: Int = 1024

    /// The defaults above.
    public init() {}
}

/// Request ids: a random per-process prefix and a counter, unique and cheap (`3f9a1c-000001a4`). Fifteen bytes fit
/// Swift's inline small-string storage, so making one allocates nothing (until the counter passes 2³²).
public final class RequestIDGenerator: Sendable {
    /// The process-wide generator.
    public static let shared = RequestIDGenerator()

    private let prefix: UInt32
    private let counter: Atomic<UInt64>

    /// A generator with a fresh random prefix.
    public convenience init() { self.init(startingAfter: 0) }

    /// A generator with a fresh random prefix whose first id carries `counter + 1` (tests use it to reach wide ids).
    public init(startingAfter counter: UInt64) {
        self.prefix = UInt32.random(in: 0..<(1 << 24))
        self.counter = Atomic(counter)
    }

    /// The next id.
    @Sendable public func next() -> String {
        let value = counter.add(1, ordering: .relaxed).newValue
        let counterDigits = max(8, (64 - value.leadingZeroBitCount + 3) / 4)
        return String(unsafeUninitializedCapacity: 7 + counterDigits) { bytes in
            Self.writeHex(UInt64(prefix), digits: 6, into: bytes, at: 0)
            bytes[6] = UInt8(ascii: "-")
            Self.writeHex(value, digits: counterDigits, into: bytes, at: 7)
            return 7 + counterDigits
        }
    }

    /// Writes the low `digits` hex digits of `value`, lower case, most significant first.
    private static func writeHex(
        _ value: UInt64, digits: Int, into bytes: UnsafeMutableBufferPointer<UInt8>, at start: Int
    ) {
        for position in 0..<digits {
            let nibble = UInt8(truncatingIfNeeded: value >> (UInt64(digits - 1 - position) * 4)) & 0xF
            bytes[start + position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
    }
}
