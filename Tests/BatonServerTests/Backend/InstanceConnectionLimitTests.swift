import Foundation
import Testing

@testable import BatonServer

#if canImport(Glibc)
import Glibc
#endif

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
        do {
            let first = try LoopbackConnection(port: port)
            let second = try LoopbackConnection(port: port)
            let request = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
            for connection in [first, second] {
                #expect(await connection.ask(request, within: 30).hasPrefix("HTTP/1.1 200"))
            }
            // All threads together hold 2 (not 2 per thread): the third waits in the listen backlog, unanswered.
            let third = try LoopbackConnection(port: port)
            #expect(await third.ask(request, within: 0.3).isEmpty)
            first.close()
            #expect(await third.ask(nil, within: 30).hasPrefix("HTTP/1.1 200"))
        }
    }
}

/// A kept-alive TCP connection to 127.0.0.1 whose blocking calls run on a thread of their own (not the pool).
private final class LoopbackConnection: Sendable {
    private let fd: Int32

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            Glibc.close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { Glibc.close(fd) }

    func close() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Sends `request` (if any), then returns what arrives within `seconds` ("" if nothing does).
    func ask(_ request: String?, within seconds: Double) async -> String {
        await withCheckedContinuation { continuation in
            Thread { [fd] in
                if let request {
                    let bytes = Array(request.utf8)
                    _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, Int32(seconds * 1000)) == 1 else { return continuation.resume(returning: "") }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                continuation.resume(returning: String(decoding: buffer.prefix(max(0, count)), as: UTF8.self))
            }.start()
        }
    }
}
