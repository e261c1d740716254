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
        func set(_ new: StoreError) { error.withLock { $0 = new } }
    }

    /// A router with the store middleware and one store-backed route that fails with `failure` while it is set.
    /// With `held`, the session id `held` reads the store at once but waits at the gate before it answers: a
    /// request whose task was not scheduled again until after newer requests had answered (a loaded machine).
    static func router(logs: InMemoryLogSink, failure: Failure, held: Gate? = nil) -> Router {
        var router = Router()
        let clock = ManualClock()
        router.use(StoreFailureMiddleware(outages: StoreOutageLog(logger: Logger(sink: logs), now: { clock.now })))
        router.get("/v2/connect-sessions/{sessionId}", attributes: .storeBacked) { request in
            let outcome = failure.current
            if let held, request.parameters["sessionId"] == "held" { await held.pass() }
            if let error = outcome { throw error }
            clock.advance(by: 1)
            return .text("ok\n")
        }
        router.post("/v2/connect-sessions", attributes: .storeBacked) { _ in
            if let error = failure.current { throw error }
            clock.advance(by: 1)
            return .text("created\n", status: 201)
        }
        // Reads still work on a full disk: readiness answers while every write is refused.
        router.get("/readyz", attributes: .storeBacked) { _ in .text("ready\n") }
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
                // Nor does a read that succeeds on the full disk (the disk-full check's second outage line).
                #expect(try await client.execute(.get, "/readyz").status == 200)
            }
            failure.clear()
            #expect(try await client.execute(.post, "/v2/connect-sessions").status == 201)
            #expect(try await client.execute(.post, "/v2/connect-sessions").status == 201)
        }
        let lines = logs.captured
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""event":"store_unavailable""#) == true)
        #expect(lines.first?.contains(#""reason":"disk_full""#) == true)
        #expect(lines.first?.contains(#""engine_code":"13""#) == true)
        #expect(lines.last?.contains(#""event":"store_recovered""#) == true)
        #expect(lines.last?.contains(#""refused_requests":5"#) == true)
    }

    static let lost = StoreError(.unavailable, engine: .postgres, operation: "claim", engineCode: "57P01")

    /// The soak form of `pg-restart` logged a second pair for one outage on a loaded machine: a request the store
    /// had refused during the outage reported its failure only after a newer request had reported success.
    @Test func aFailureAnsweredAfterTheRecoveryIsPartOfTheOutageItBeganIn() async throws {
        let logs = InMemoryLogSink()
        let failure = Failure(Self.lost)
        let gate = Gate()
        try await Self.router(logs: logs, failure: failure, held: gate).test(.inProcess) { client in
            #expect(try await client.execute(.get, "/v2/connect-sessions/cs_1").status == 503)
            async let held = client.execute(.get, "/v2/connect-sessions/held")
            await gate.waitForArrival()
            failure.clear()
            #expect(try await client.execute(.get, "/v2/connect-sessions/cs_1").status == 200)
            gate.open()
            // Still a retryable refusal for the app; but no new outage for the log.
            let late = try await held
            #expect(late.status == 503)
            #expect(try await client.execute(.get, "/v2/connect-sessions/cs_1").status == 200)
        }
        let events = logs.captured.map { $0.contains("store_unavailable") ? "unavailable" : "recovered" }
        #expect(events == ["unavailable", "recovered"])
    }

    /// The other order: a request the store served before the outage, answering after the outage was logged, does
    /// not end it (the store still refuses every new request).
    @Test func aSuccessAnsweredAfterTheOutageBeganDoesNotEndIt() async throws {
        let logs = InMemoryLogSink()
        let failure = Failure(nil)
        let gate = Gate()
        try await Self.router(logs: logs, failure: failure, held: gate).test(.inProcess) { client in
            async let held = client.execute(.get, "/v2/connect-sessions/held")
            await gate.waitForArrival()
            failure.set(Self.lost)
            #expect(try await client.execute(.get, "/v2/connect-sessions/cs_1").status == 503)
            gate.open()
            let stale = try await held
            #expect(stale.status == 200)
            #expect(try await client.execute(.get, "/v2/connect-sessions/cs_1").status == 503)
            failure.clear()
            #expect(try await client.execute(.get, "/v2/connect-sessions/cs_1").status == 200)
        }
        let lines = logs.captured
        #expect(
            lines.map { $0.contains("store_unavailable") ? "unavailable" : "recovered" } == [
                "unavailable", "recovered",
            ])
        #expect(lines.last?.contains(#""refused_requests":2"#) == true)
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
            (StoreError(.unavailable, engine: .postgres, operation: "claim", engineCode: "25006"), "read_only"),
            (StoreError(.busy, engine: .sqlite, operation: "claim", engineCode: "5"), "busy"),
        ])
    func reasons(error: StoreError, reason: String) {
        #expect(StoreOutageLog.reason(for: error) == reason)
    }
}
