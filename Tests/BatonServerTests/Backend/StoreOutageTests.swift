import BatonHTTP
import BatonHTTPTesting
import BatonTestSupport
import Foundation
import Synchronization
import Testing

@testable import BatonServer

/// A store that stops answering (full disk, PostgreSQL restarting) gives every app request a retryable
/// `503 service_unavailable` with `Retry-After`, one log line saying why, and one when it answers again.
@Suite("Store outages")
struct StoreOutageTests {
    /// The error the store-backed route throws, while set.
    final class Failure: Sendable {
        private let error: Mutex<StoreError?>
        init(_ error: StoreError?) { self.error = Mutex(error) }
        var current: StoreError? { error.withLock { $0 } }
        func clear() { error.withLock { $0 = nil } }
    }

    /// A router with the store middleware and one store-backed route that fails with `failure` while it is set.
    static func router(logs: InMemoryLogSink, failure: Failure) -> Router {
        var router = Router()
        let clock = ManualClock()
        router.use(StoreFailureMiddleware(outages: StoreOutageLog(logger: Logger(sink: logs), now: { clock.now })))
        router.get("/v2/connect-sessions/{sessionId}") { _ in
            if let error = failure.current { throw error }
            clock.advance(by: 1)
            return .text("ok\n")
        }
        router.get("/healthz") { _ in .text("ok\n") }
        return router
    }

    @Test func aFullDiskIsRefusedRetryablyWithOneLineThenRecoveredWithOne() async throws {
        let logs = InMemoryLogSink()
        let failure = Failure(StoreError(.unavailable, engine: .sqlite, operation: "complete", engineCode: "13"))
        try await Self.router(logs: logs, failure: failure).test(.inProcess) { client in
            for _ in 0..<5 {
                let refused = try await client.execute(.get, "/v2/connect-sessions/cs_1")
                #expect(refused.status == 503)
                #expect(refused.headers["retry-after"] == "1")
                #expect(refused.bodyText.contains(#""code":"service_unavailable""#))
                // A route that never touches the store does not end the outage.
                #expect(try await client.execute(.get, "/healthz").status == 200)
            }
            failure.clear()
            #expect(try await client.execute(.get, "/v2/connect-sessions/cs_1").status == 200)
            #expect(try await client.execute(.get, "/v2/connect-sessions/cs_1").status == 200)
        }
        let lines = logs.captured
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""event":"store_unavailable""#) == true)
        #expect(lines.first?.contains(#""reason":"disk_full""#) == true)
        #expect(lines.first?.contains(#""engine_code":"13""#) == true)
        #expect(lines.last?.contains(#""event":"store_recovered""#) == true)
        #expect(lines.last?.contains(#""refused_requests":5"#) == true)
    }

    @Test(
        "the reason names the cause",
        arguments: [
            (StoreError(.unavailable, engine: .sqlite, operation: "claim", engineCode: "13"), "disk_full"),
            (StoreError(.unavailable, engine: .sqlite, operation: "claim", engineCode: "778"), "io_error"),
            (
                StoreError(.unavailable, engine: .postgres, operation: "claim", engineCode: "57P01"),
                "server_shutting_down"
            ),
            (StoreError(.unavailable, engine: .postgres, operation: "claim", engineCode: "08006"), "connection_lost"),
            (StoreError(.unavailable, engine: .postgres, operation: "claim", engineCode: "53100"), "disk_full"),
            (StoreError(.unavailable, engine: .postgres, operation: "connect"), "unreachable"),
            (StoreError(.busy, engine: .sqlite, operation: "claim", engineCode: "5"), "busy"),
        ])
    func reasons(error: StoreError, reason: String) {
        #expect(StoreOutageLog.reason(for: error) == reason)
    }
}
