import BatonHTTP
import BatonHTTPTesting
import Foundation
import Testing

/// Slow-drip clients on kept-alive connections, and the cap on connections per client address.
///
/// Deadlines not under test are long (60 s) and reads wait up to 30 s: on a loaded two-core host the whole test
/// process can stall for seconds, and a 10 s header deadline would then cut a connection these tests count on.
@Suite("Connection limits: kept-alive header deadline, connections per address", .serialized)
struct ConnectionLimitTests {
    static func router() -> Router {
        var router = Router()
        router.get("/{anything}") { _ in .text("ok") }
        return router
    }

    @Test func drippedRequestLineOnAKeptAliveConnectionIsCutOff() async throws {
        let configuration = testConfiguration {
            $0.limits.idleTimeout = .seconds(30)
            $0.limits.headerTimeout = .seconds(1)
        }
        try await withServer(configuration, router: Self.router()) { server in
            let client = try RawClient(port: server.port, readTimeout: 30)
            await client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse().hasPrefix("HTTP/1.1 200"))
            // The next request line itself, one byte every 200 ms: it never completes, so within 20 s nothing but a
            // deadline started by its first byte can end it (the idle timeout is 30 s, and each byte resets it).
            // Expected after 1 s plus at most one watchdog check (250 ms); the 20 s bound is room for a loaded host.
            let cutOff = await client.dripUntilClosed(interval: .milliseconds(200), limit: .seconds(20))
            print("request line dripped on a kept-alive connection cut off after \(cutOff.map { "\($0)" } ?? "never")")
            #expect(cutOff != nil)
        }
    }

    @Test func idleKeptAliveConnectionIsLeftToTheIdleTimeout() async throws {
        let configuration = testConfiguration {
            $0.limits.idleTimeout = .seconds(30)
            $0.limits.headerTimeout = .seconds(1)
        }
        try await withServer(configuration, router: Self.router()) { server in
            let client = try RawClient(port: server.port, readTimeout: 30)
            await client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse().hasPrefix("HTTP/1.1 200"))
            // Silent for twice the header timeout: the connection stays open (no end of stream arrives)...
            #expect(await client.waitForData(within: .seconds(2)) == false)
            // ...and serves the next request.
            await client.send("GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse().hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func connectionsOverThePerAddressCapAreClosedUnanswered() async throws {
        let configuration = testConfiguration {
            $0.limits.maxConnectionsPerAddress = 2
            $0.limits.exemptsLoopbackFromAddressLimit = false
            $0.limits.headerTimeout = .seconds(60)
        }
        try await withServer(configuration, router: Self.router()) { server in
            let first = try RawClient(port: server.port, readTimeout: 30)
            let second = try RawClient(port: server.port, readTimeout: 30)
            for client in [first, second] {
                await client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await client.readResponse().hasPrefix("HTTP/1.1 200"))
            }
            let third = try RawClient(port: server.port, readTimeout: 30)
            await third.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
            let (response, closed) = await third.readUntilClosed()
            #expect(response.isEmpty)
            #expect(closed)
            // The two within the cap are still served.
            await first.send("GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await first.readResponse().hasPrefix("HTTP/1.1 200"))
            // Once one closes, its slot is free again (the server notices the close asynchronously: try a few times).
            second.close()
            var servedAgain = false
            for _ in 0..<50 where !servedAgain {
                let next = try RawClient(port: server.port)
                await next.send("GET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                servedAgain = await next.readUntilClosed().text.hasPrefix("HTTP/1.1 200")
            }
            #expect(servedAgain)
        }
    }

    @Test func loopbackPeersAreOutsideThePerAddressCapByDefault() async throws {
        let configuration = testConfiguration {
            $0.limits.maxConnectionsPerAddress = 1
            $0.limits.headerTimeout = .seconds(60)
        }
        #expect(configuration.limits.exemptsLoopbackFromAddressLimit)
        try await withServer(configuration, router: Self.router()) { server in
            let clients = try (0..<3).map { _ in try RawClient(port: server.port, readTimeout: 30) }
            for client in clients {
                await client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await client.readResponse().hasPrefix("HTTP/1.1 200"))
            }
        }
    }

    @Test func defaultCapIsSetAndConfigurable() {
        let limits = HTTPServerLimits()
        #expect(limits.maxConnectionsPerAddress == 128)
        #expect(limits.maxConnectionsPerAddress < limits.maxConnections)
    }
}
