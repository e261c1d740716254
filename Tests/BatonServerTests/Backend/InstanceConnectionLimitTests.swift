import BatonHTTPTesting
import Foundation
import Testing

@testable import BatonServer

/// `server.maxConnections` reaches the live server: with a limit of 2, a third kept-alive connection is not answered
/// until one of the first two closes.
@Suite("Instance connection limit (server.maxConnections), live")
struct InstanceConnectionLimitTests {
    @Test(arguments: [1, 2])
    func aConnectionOverTheLimitWaitsUntilOneCloses(threads: Int) async throws {
        var configuration = try TestConfiguration.make()
        configuration.server.maxConnections = 2
        configuration.server.threads = threads
        let fixture = try await BackendFixture.make(.sqlite, configuration: configuration)
        let running = try fixture.backend.start(host: "127.0.0.1", port: 0)
        let port = running.server.port
        do {
            try await Self.checkLimit(port: port)
        } catch {
            await running.shutdown(grace: .seconds(2))
            await fixture.close()
            throw error
        }
        await running.shutdown(grace: .seconds(2))
        await fixture.close()
    }

    static func checkLimit(port: UInt16) async throws {
        let first = try RawClient(port: port, readTimeout: 30)
        let second = try RawClient(port: port, readTimeout: 30)
        let request = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        for connection in [first, second] {
            await connection.send(request)
            #expect(await connection.readResponse().hasPrefix("HTTP/1.1 200"))
        }
        // All threads together hold 2 (not 2 per thread): the third waits in the listen backlog, unanswered.
        let third = try RawClient(port: port, readTimeout: 30)
        await third.send(request)
        #expect(await !third.waitForData(within: .milliseconds(300)))
        first.close()
        #expect(await third.readResponse().hasPrefix("HTTP/1.1 200"))
    }
}
