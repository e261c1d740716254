import BatonCore
import BatonHTTP
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// The idempotency rows about concurrency, provider failures and crashed instances (CONTRACTS.md §2).
@Suite("POST /v2/handoff-sessions under concurrency and failure")
struct HandoffSessionFailureTests {
    @Test(
        "same key, same body, still running → waits for the first, then the same 201",
        arguments: BackendEngines.available)
    func concurrentDuplicateJoins(engine: StoreEngine) async throws {
        let (fixture, chia) = try await Share.fixture(engine)
        let gate = Gate()
        fixture.transport.on(.post, "/v2/handoff-sessions") { request in
            await gate.pass()
            return chia.handle(request)
        }
        try await fixture.run(.live) { api in
            let key = Share.key()
            async let first = api.share(key: key)
            await gate.waitForArrival()
            async let second = api.share(key: key)
            try await eventually { fixture.backend.metrics.value("baton_idempotency_outcomes_total", ["waiting"]) == 1 }
            gate.open()
            let (a, b) = try await (first, second)
            #expect(a.status == 201)
            #expect(b.status == 201)
            #expect(a.body == b.body)
            #expect([a, b].filter { $0.headers["idempotent-replayed"] == "true" }.count == 1)
            #expect(fixture.backend.metrics.value("baton_idempotency_outcomes_total", ["joined"]) == 1)
            #expect(chia.sessionCount == 1)
            #expect(fixture.transport.requests(.post, "/v2/handoff-sessions").count == 1)
        }
    }

    @Test(
        "still running past the bound → 503 with Retry-After; the first still completes",
        arguments: BackendEngines.available)
    func concurrentDuplicateTimesOut(engine: StoreEngine) async throws {
        let (fixture, chia) = try await Share.fixture(engine) { $0.handoff.joinTimeout = .milliseconds(150) }
        let gate = Gate()
        fixture.transport.on(.post, "/v2/handoff-sessions") { request in
            await gate.pass()
            return chia.handle(request)
        }
        try await fixture.run { api in
            let key = Share.key()
            async let first = api.share(key: key)
            await gate.waitForArrival()
            let waiting = try await api.share(key: key)
            #expect(waiting.status == 503)
            #expect(waiting.problemCode == "request_in_progress")
            #expect(waiting.headers["retry-after"] == "1")
            gate.open()
            #expect(try await first.status == 201)
            #expect(try await api.share(key: key).headers["idempotent-replayed"] == "true")
            #expect(chia.sessionCount == 1)
        }
    }

    enum ProviderFault: String, CaseIterable, Sendable {
        case connectFailed, timeout, reset, tooManyRequests, serverError, unavailable, malformed
    }

    static let faults: [(StoreEngine, ProviderFault)] = BackendEngines.available.flatMap { engine in
        ProviderFault.allCases.map { (engine, $0) }
    }

    @Test(
        "provider network error / timeout / 429 / 5xx → 502/503/429 with Retry-After; the retry proceeds",
        arguments: faults)
    func providerRetryable(engine: StoreEngine, fault: ProviderFault) async throws {
        let (fixture, chia) = try await Share.fixture(engine)
        fixture.transport.on(.post, "/v2/handoff-sessions") { _ in
            switch fault {
            case .connectFailed: throw TransportError(.connectFailed)
            case .timeout: throw TransportError(.timedOut)
            case .reset: throw TransportError(.connectionReset)
            case .tooManyRequests:
                return ScriptedTransport.json(429, ["error": "rate_limited"], headers: ["retry-after": "7"])
            case .serverError: return ScriptedTransport.json(500, ["error": "internal"])
            case .unavailable: return ScriptedTransport.json(503, [:], headers: ["retry-after": "3"])
            case .malformed: return ScriptedTransport.json(201, ["link": "nope"])
            }
        }
        try await fixture.run { api in
            let key = Share.key()
            let failed = try await api.share(key: key)
            let expected: (Int, String) =
                switch fault {
                case .tooManyRequests: (429, "7")
                case .timeout: (503, "1")
                case .unavailable: (502, "3")
                default: (502, "1")
                }
            #expect(failed.status == expected.0)
            #expect(failed.headers["retry-after"] == expected.1)
            let record = try #require(try await fixture.store.idempotencyRecord(user: "alice", key: key))
            #expect(record.state == .failed)
            #expect(record.sealedResponse == nil)
            // The call policy retried every failure but a malformed answer (its attempts all used the same key).
            let attempts = fixture.transport.requests(.post, "/v2/handoff-sessions")
            #expect(attempts.count == (fault == .malformed ? 1 : 2))
            #expect(
                Set(attempts.map { $0.headers["idempotency-key"] }) == [Share.upstreamKey(key, fixture.configuration)])

            fixture.transport.on(.post, "/v2/handoff-sessions") { chia.handle($0) }
            let retried = try await api.share(key: key)
            #expect(retried.status == 201)
            #expect(retried.headers["idempotent-replayed"] == nil)
            #expect(
                fixture.transport.requests(.post, "/v2/handoff-sessions").last?.headers["idempotency-key"]
                    == Share.upstreamKey(key, fixture.configuration))
            #expect(try await api.share(key: key, body: Share.body(version: "other")).status == 422)
        }
    }

    @Test(
        "provider definitive 4xx → recorded and replayed for that key, as a 4xx",
        arguments: BackendEngines.available.flatMap { engine in
            [
                (409, "sharing_not_allowed", 409, "projection_changed"),
                (400, "validation_error", 422, "handoff_rejected"),
            ]
            .map { (engine, $0.0, $0.1, $0.2, $0.3) }
        })
    func providerDefinitive(
        engine: StoreEngine, status: Int, code: String, answer: Int, answerCode: String
    )
        async throws
    {
        let (fixture, _) = try await Share.fixture(engine)
        fixture.transport.on(.post, "/v2/handoff-sessions") { _ in ScriptedTransport.json(status, ["error": code]) }
        try await fixture.run { api in
            let key = Share.key()
            let first = try await api.share(key: key)
            #expect(first.status == answer)
            #expect(first.problemCode == answerCode)
            let replay = try await api.share(key: key)
            #expect(replay.status == answer)
            #expect(replay.problemCode == answerCode)
            #expect(replay.headers["idempotent-replayed"] == "true")
            #expect(fixture.transport.requests(.post, "/v2/handoff-sessions").count == 1)
        }
    }

    @Test(
        "an instance dies mid-request → after its lease lapses a retry takes over; one journey per key",
        arguments: BackendEngines.available)
    func leaseTakeover(engine: StoreEngine) async throws {
        let clock = ManualClock()
        let (fixture, chia) = try await Share.fixture(engine, clock: clock) {
            $0.handoff.joinTimeout = .milliseconds(100)
        }
        try await fixture.run { api in
            let key = Share.key()
            let request = try #require(ShareRequestBody(json: Array(Share.body().utf8)))
            // The dead instance: it claimed, forwarded to Chia (which created the session), then crashed.
            #expect(
                try await fixture.store.claim(
                    user: "alice", key: key, fingerprint: request.fingerprint, owner: "dead-instance/1",
                    leaseUntil: clock.now.addingTimeInterval(30), now: clock.now) == .claimed)
            let crashed = chia.handle(
                OutboundRequest(
                    method: .post, url: "http://chia/v2/handoff-sessions",
                    headers: ["idempotency-key": Share.upstreamKey(key, fixture.configuration)],
                    body: request.forwardedBody))
            #expect(crashed.status == 201)

            // While the lease is live, the retry waits and is told to come back.
            let early = try await api.share(key: key)
            #expect(early.status == 503)
            #expect(early.headers["retry-after"] != nil)

            clock.advance(by: 31)
            let takeover = try await api.share(key: key)
            #expect(takeover.status == 201)
            #expect(jsonObject(takeover)["url"] as? String == jsonObject(crashed)["url"] as? String)
            #expect(chia.sessionCount == 1)
            #expect(
                fixture.transport.requests(.post, "/v2/handoff-sessions").first?.headers["idempotency-key"]
                    == Share.upstreamKey(key, fixture.configuration))
            #expect(fixture.backend.metrics.value("baton_idempotency_outcomes_total", ["took_over"]) == 1)

            // The dead instance's late completion is refused: the record is the taker's.
            #expect(
                try await fixture.store.complete(
                    user: "alice", key: key, owner: "dead-instance/1", responseStatus: 201, sealedResponse: [1],
                    responseExpiresAt: clock.now.addingTimeInterval(60), now: clock.now) == false)
            #expect(try await api.share(key: key).body == takeover.body)
        }
    }
}
