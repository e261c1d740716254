import BatonHTTP
import Foundation
import Testing

@Suite("CurlTransport lifetime: its I/O thread ends with it")
struct CurlTransportLifetimeTests {
    /// Threads of this process, from `/proc/self/task`.
    static func threadCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
    }

    @Test func droppedTransportsLeaveNoThreads() async throws {
        try await withServer(router: transportTestRouter()) { server in
            // Warm up what the process keeps anyway (curl's global state, the cooperative pool).
            _ = try await CurlTransport().send(OutboundRequest(url: server.url("/hello")))
            let before = try Self.threadCount()
            for _ in 0..<50 {
                let transport = CurlTransport()
                let response = try await transport.send(OutboundRequest(url: server.url("/hello")))
                #expect(response.status == 200)
            }
            for _ in 0..<50 { _ = CurlTransport() }  // never used
            let after = try Self.threadCount()
            print("threads before: \(before), after 100 dropped transports: \(after)")
            // A thread per transport would add 100; other suites running in parallel move the count by a few.
            #expect(after <= before + 20)
        }
    }
}
