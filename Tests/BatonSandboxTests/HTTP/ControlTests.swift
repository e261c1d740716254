import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonSandbox

@Suite struct ControlTests {
    @Test func requestListingShowsCallsWithoutSecrets() async throws {
        try await Harness.run { harness in
            let chia = harness.sandbox.chiaOrigin
            var headers = harness.chiaAuth
            let key = IdempotencyKey.random().rawValue
            headers.set("idempotency-key", key)
            _ = try await harness.json(
                .post, chia + "/v2/handoff-sessions", headers: headers,
                [
                    "catalogItemId": "cat_weight_care", "disclosureVersion": ChiaFixtures.disclosureVersion,
                    "affirmed": true, "affirmedAt": "2025-06-15T10:00:00Z",
                ])
            _ = try await harness.send(.get, chia + "/v2/catalog?x=1", headers: ["authorization": "Bearer wrong"])
            let listing = try await harness.send(.get, chia + "/_sandbox/requests")
            #expect(!listing.bodyText.contains(Harness.chiaKey))
            #expect(!listing.bodyText.contains("wrong"))
            let entries = try #require(try object(listing)["requests"] as? [[String: Any]])
            #expect(entries.count == 2)
            #expect(entries[0]["method"] as? String == "POST")
            #expect(entries[0]["path"] as? String == "/v2/handoff-sessions")
            #expect(entries[0]["idempotencyKey"] as? String == key)
            #expect(entries[0]["status"] as? Int == 201)
            #expect(entries[0]["time"] as? String == RFC3339.string(from: harness.clock.now))
            #expect(entries[1]["path"] as? String == "/v2/catalog")
            #expect(entries[1]["status"] as? Int == 401)
            #expect(entries[1]["idempotencyKey"] is NSNull)
        }
    }

    @Test func resetForgetsStateRequestsAndFaults() async throws {
        try await Harness.run { harness in
            let bb = harness.sandbox.bbOrigin
            _ = try await harness.json(
                .post, bb + "/v2/connect-sessions", headers: harness.bbAuth, ["returnUrl": "acmewallet://bb-callback"])
            _ = try await harness.json(
                .post, bb + "/_sandbox/faults", ["endpoint": "*", "fault": "status", "status": 500])
            #expect(try #require(try await harness.state(bb)["connectSessions"] as? [Any]).count == 1)
            #expect(try await harness.send(.post, bb + "/_sandbox/reset").status == 204)
            #expect(try #require(try await harness.state(bb)["connectSessions"] as? [Any]).isEmpty)
            #expect(try await harness.requests(bb).isEmpty)
            let faults = try object(try await harness.send(.get, bb + "/_sandbox/faults"))
            #expect((faults["faults"] as? [Any])?.isEmpty == true)
            let works = try await harness.json(
                .post, bb + "/v2/connect-sessions", headers: harness.bbAuth, ["returnUrl": "acmewallet://bb-callback"])
            #expect(works.status == 201)
        }
    }

    @Test func clockMovesOnceForEveryOrigin() async throws {
        try await Harness.run(configure: { $0.clock = .shiftable($0.clock) }) { harness in
            let start = harness.clock.now
            let moved = try object(
                try await harness.json(.post, harness.sandbox.privueOrigin + "/_sandbox/clock", ["advanceSeconds": 121])
            )
            #expect(moved["offsetSeconds"] as? Int == 121)
            // One clock for the three simulators: the move shows on another origin, and the manual clock is untouched.
            let read = try object(try await harness.send(.get, harness.sandbox.bbOrigin + "/_sandbox/clock"))
            #expect(read["offsetSeconds"] as? Int == 121)
            #expect(read["now"] as? String == RFC3339.string(from: start.addingTimeInterval(121)))
            #expect(harness.sandbox.configuration.clock.now() == start.addingTimeInterval(121))
            let back = try object(
                try await harness.json(.post, harness.sandbox.chiaOrigin + "/_sandbox/clock", ["advanceSeconds": -121]))
            #expect(back["offsetSeconds"] as? Int == 0)
        }
    }

    @Test func clockRefusesBadStepsAndAFixedClock() async throws {
        try await Harness.run(configure: { $0.clock = .shiftable($0.clock) }) { harness in
            for body in [#"{"advanceSeconds":86401}"#, #"{"advanceSeconds":1.5}"#, #"{"seconds":1}"#, "[]"] {
                let response = try await harness.send(
                    .post, harness.sandbox.chiaOrigin + "/_sandbox/clock", body: Array(body.utf8))
                #expect(response.status == 400, "\(body)")
                #expect(try object(response)["code"] as? String == "invalid_clock")
            }
            #expect(harness.sandbox.configuration.clock.offsetSeconds == 0)
        }
        try await Harness.run { harness in
            let response = try await harness.json(
                .post, harness.sandbox.chiaOrigin + "/_sandbox/clock", ["advanceSeconds": 1])
            #expect(response.status == 409)
            #expect(try object(response)["code"] as? String == "clock_fixed")
            let read = try object(try await harness.send(.get, harness.sandbox.chiaOrigin + "/_sandbox/clock"))
            #expect(read["offsetSeconds"] is NSNull)
        }
    }

    @Test func chiaJourneysHaveNoOutcomeToDrive() async throws {
        try await Harness.run { harness in
            let response = try await harness.json(
                .post, harness.sandbox.chiaOrigin + "/_sandbox/journeys/hs_1/complete", ["status": "done"])
            #expect(response.status == 409)
            #expect(try object(response)["code"] as? String == "no_outcome")
        }
    }

    @Test func controlAndStateAreServedOnEveryOrigin() async throws {
        try await Harness.run { harness in
            for (origin, provider) in [
                (harness.sandbox.chiaOrigin, "chia"), (harness.sandbox.privueOrigin, "privue"),
                (harness.sandbox.bbOrigin, "bb"),
            ] {
                #expect(origin.hasPrefix("http://127.0.0.1:"))
                let state = try object(try await harness.send(.get, origin + "/_sandbox/state"))
                #expect(state["provider"] as? String == provider)
            }
            #expect(
                Set([harness.sandbox.chiaOrigin, harness.sandbox.privueOrigin, harness.sandbox.bbOrigin]).count == 3)
        }
    }

    /// The control API has no key: a page on another site (CSRF), a host name re-pointed at 127.0.0.1 (DNS
    /// rebinding) or a proxy in front must not reach it. Provider routes are not affected.
    @Test(
        arguments: [
            (["origin": "https://attacker.example"], 403), (["host": "attacker.example:8081"], 403),
            (["x-forwarded-for": "203.0.113.9"], 403), (["forwarded": "for=203.0.113.9"], 403),
            ([:], 204),
        ] as [([String: String], Int)])
    func controlCallsComeOnlyFromThisMachinesOwnPages(headers: [String: String], status: Int) async throws {
        try await Harness.run { harness in
            let bb = harness.sandbox.bbOrigin
            var fields = HTTPHeaders()
            for (name, value) in headers { fields.set(name, value) }
            let reset = try await harness.send(.post, bb + "/_sandbox/reset", headers: fields)
            #expect(reset.status == status)
            if status == 403 { #expect(reset.bodyText.contains("not_local")) }
            // A path under the control API that no route answers is refused the same way: no 404 tells a stranger
            // which control routes exist.
            let unknown = try await harness.send(.get, bb + "/_sandbox/nowhere", headers: fields)
            #expect(unknown.status == (status == 403 ? 403 : 404))
            // Same-origin: the sandbox's own pages may call it.
            let sameOrigin = try await harness.send(.get, bb + "/_sandbox/state", headers: ["origin": bb])
            #expect(sameOrigin.status == 200)
        }
    }
}
