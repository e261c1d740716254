import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonSandbox

@Suite struct FaultTests {
    func addFault(_ harness: Harness, _ origin: String, _ spec: [String: Any]) async throws -> [String: Any] {
        let response = try await harness.json(.post, origin + "/_sandbox/faults", spec)
        #expect(response.status == 201)
        return try object(response)
    }

    @Test func statusFaultsFireOnTheNextNCallsWithRetryAfter() async throws {
        try await Harness.run { harness in
            let chia = harness.sandbox.chiaOrigin
            _ = try await addFault(
                harness, chia,
                ["endpoint": "GET /v2/catalog", "fault": "status", "status": 429, "retryAfterSeconds": 7, "count": 2])
            for _ in 0..<2 {
                let limited = try await harness.send(.get, chia + "/v2/catalog", headers: harness.chiaAuth)
                #expect(limited.status == 429)
                #expect(limited.headers["retry-after"] == "7")
                #expect(limited.retryAfter == .seconds(7))
                #expect(try object(limited)["code"] as? String == "rate_limited")
            }
            #expect(try await harness.send(.get, chia + "/v2/catalog", headers: harness.chiaAuth).status == 200)
            let log = try await harness.requests(chia)
            #expect(log.map { $0["status"] as? Int } == [429, 429, 200])
            #expect(log.map { $0["fault"] as? String } == ["status", "status", nil])
        }
    }

    @Test(arguments: [500, 503])
    func serverErrorFaultsUseTheProvidersErrorShape(_ status: Int) async throws {
        try await Harness.run { harness in
            let bb = harness.sandbox.bbOrigin
            _ = try await addFault(
                harness, bb, ["endpoint": "POST /v2/connect-sessions", "fault": "status", "status": status])
            for _ in 0..<3 {
                let failed = try await harness.json(
                    .post, bb + "/v2/connect-sessions", headers: harness.bbAuth,
                    ["returnUrl": "acmewallet://bb-callback"])
                #expect(failed.status == status)
                #expect(try object(failed)["error"] as? String != nil)
            }
            let sessions = try #require(try await harness.state(bb)["connectSessions"] as? [Any])
            #expect(sessions.isEmpty)
            #expect(try await harness.send(.delete, bb + "/_sandbox/faults").status == 204)
            let ok = try await harness.json(
                .post, bb + "/v2/connect-sessions", headers: harness.bbAuth, ["returnUrl": "acmewallet://bb-callback"])
            #expect(ok.status == 201)
        }
    }

    @Test func dropClosesTheConnectionWithoutAResponse() async throws {
        try await Harness.run { harness in
            let privue = harness.sandbox.privueOrigin
            _ = try await addFault(harness, privue, ["endpoint": "/verifications/{id}", "fault": "drop", "count": 1])
            // A fresh connection: libcurl silently re-sends a request once when a *reused* connection closes before
            // any response byte, which would hide a single drop.
            let fresh = CurlTransport()
            await #expect {
                _ = try await fresh.send(
                    OutboundRequest(url: privue + "/verifications/x", headers: harness.privueAuth))
            } throws: { error in
                guard let error = error as? TransportError else { return false }
                return error.kind == .connectionReset || error.kind == .other
            }
            let after = try await harness.send(.get, privue + "/verifications/x", headers: harness.privueAuth)
            #expect(after.status == 404)
            let log = try await harness.requests(privue)
            #expect(log.map { $0["fault"] as? String } == ["drop", nil])
            #expect(log.first?["status"] is NSNull)
        }
    }

    @Test func aDropOnAReusedConnectionIsResentOnceByLibcurl() async throws {
        try await Harness.run { harness in
            let privue = harness.sandbox.privueOrigin
            _ = try await addFault(harness, privue, ["endpoint": "/verifications/{id}", "fault": "drop", "count": 1])
            // The control call above left a connection to reuse.
            let response = try await harness.send(.get, privue + "/verifications/x", headers: harness.privueAuth)
            #expect(response.status == 404)
            #expect(try await harness.requests(privue).map { $0["fault"] as? String } == ["drop", nil])
        }
    }

    @Test func timeoutHoldsTheCallUntilTheClientGivesUp() async throws {
        try await Harness.run { harness in
            let chia = harness.sandbox.chiaOrigin
            _ = try await addFault(
                harness, chia, ["endpoint": "POST /v2/handoff-sessions", "fault": "timeout", "count": 1])
            var headers = harness.chiaAuth
            headers.set("idempotency-key", IdempotencyKey.random().rawValue)
            await #expect {
                _ = try await harness.send(
                    .post, chia + "/v2/handoff-sessions", headers: headers, timeout: .milliseconds(300))
            } throws: { error in
                (error as? TransportError)?.kind == .timedOut
            }
            let log = try await harness.requests(chia)
            #expect(log.first?["status"] is NSNull)
            #expect(log.first?["idempotencyKey"] as? String == headers["idempotency-key"])
            #expect(try await harness.send(.post, chia + "/_sandbox/reset").status == 204)
        }
    }

    @Test func latencyDelaysTheCallThenAnswersNormally() async throws {
        try await Harness.run { harness in
            let bb = harness.sandbox.bbOrigin
            _ = try await addFault(harness, bb, ["endpoint": "*", "fault": "latency", "latencyMs": 150, "count": 1])
            let started = ContinuousClock.now
            let response = try await harness.send(.get, bb + "/v2/connect-sessions/cs_x", headers: harness.bbAuth)
            #expect(ContinuousClock.now - started >= .milliseconds(150))
            #expect(response.status == 404)
            #expect(try await harness.requests(bb).first?["fault"] as? String == "latency")
        }
    }

    @Test func fractionalFaultsFollowTheSeed() async throws {
        try await Harness.run { harness in
            let chia = harness.sandbox.chiaOrigin
            var expected = SeededGenerator(seed: 7)
            let predicted = (0..<20).map { _ in Double.random(in: 0..<1, using: &expected) < 0.5 ? 503 : 200 }
            _ = try await addFault(
                harness, chia,
                ["endpoint": "GET /v2/catalog", "fault": "status", "status": 503, "fraction": 0.5, "seed": 7])
            var statuses: [Int] = []
            for _ in 0..<20 {
                statuses.append(try await harness.send(.get, chia + "/v2/catalog", headers: harness.chiaAuth).status)
            }
            #expect(statuses == predicted)
            #expect(statuses.contains(503) && statuses.contains(200))
            let listed = try object(try await harness.send(.get, chia + "/_sandbox/faults"))
            let fault = try #require((listed["faults"] as? [[String: Any]])?.first)
            #expect(fault["fired"] as? Int == predicted.filter { $0 == 503 }.count)
        }
    }

    @Test func invalidFaultsAreRefused() async throws {
        try await Harness.run { harness in
            for spec: [String: Any] in [
                ["endpoint": "*", "fault": "status"], ["endpoint": "*", "fault": "explode"],
                ["endpoint": "*", "fault": "drop", "count": 1, "fraction": 0.5],
            ] {
                let response = try await harness.json(.post, harness.sandbox.bbOrigin + "/_sandbox/faults", spec)
                #expect(response.status == 400)
                #expect(try object(response)["code"] as? String == "invalid_fault")
            }
        }
    }
}
