import Testing

@testable import BatonSandbox

@Suite struct FaultInjectorTests {
    @Test func countRulesFireOnTheNextNMatchingCallsOnly() async throws {
        let faults = FaultInjector()
        _ = try await faults.add(
            FaultSpec(endpoint: "POST /v2/handoff-sessions", fault: .status, status: 503, count: 2)
        ).get()
        #expect(await faults.decide(method: "GET", route: "/v2/catalog", path: "/v2/catalog") == nil)
        #expect(
            await faults.decide(method: "POST", route: "/v2/handoff-sessions", path: "/v2/handoff-sessions")?.outcome
                == .status(503, retryAfterSeconds: nil))
        #expect(await faults.decide(method: "POST", route: "/v2/handoff-sessions", path: "/v2/handoff-sessions") != nil)
        #expect(await faults.decide(method: "POST", route: "/v2/handoff-sessions", path: "/v2/handoff-sessions") == nil)
        #expect(await faults.list().isEmpty)
    }

    @Test func fractionalRulesAreReproducibleForASeed() async throws {
        func pattern(seed: UInt64) async throws -> [Bool] {
            let faults = FaultInjector()
            _ = try await faults.add(FaultSpec(endpoint: "*", fault: .drop, fraction: 0.5, seed: seed)).get()
            var fired: [Bool] = []
            for _ in 0..<200 { fired.append(await faults.decide(method: "GET", route: nil, path: "/x") != nil) }
            return fired
        }
        let one = try await pattern(seed: 42)
        #expect(try await pattern(seed: 42) == one)
        #expect(try await pattern(seed: 43) != one)
        #expect((60...140).contains(one.filter { $0 }.count))
    }

    @Test func patternsMatchRoutesAndPathsWithOrWithoutAMethod() {
        let spec = FaultSpec(endpoint: "/v2/connect-sessions/{sessionId}", fault: .timeout)
        #expect(
            spec.matches(method: "GET", route: "/v2/connect-sessions/{sessionId}", path: "/v2/connect-sessions/cs_1"))
        #expect(!spec.matches(method: "GET", route: "/v2/connect-sessions", path: "/v2/connect-sessions"))
        let literal = FaultSpec(endpoint: "GET /v2/connect-sessions/cs_1", fault: .drop)
        #expect(
            literal.matches(method: "GET", route: "/v2/connect-sessions/{sessionId}", path: "/v2/connect-sessions/cs_1")
        )
        #expect(!literal.matches(method: "POST", route: nil, path: "/v2/connect-sessions/cs_1"))
    }

    @Test(arguments: [
        FaultSpec(endpoint: "*", fault: .status),
        FaultSpec(endpoint: "*", fault: .status, status: 200),
        FaultSpec(endpoint: "*", fault: .latency),
        FaultSpec(endpoint: "", fault: .drop),
        FaultSpec(endpoint: "*", fault: .drop, count: 1, fraction: 0.5),
        FaultSpec(endpoint: "*", fault: .drop, count: 0),
        FaultSpec(endpoint: "*", fault: .drop, fraction: 1.5),
    ])
    func invalidSpecsAreRefused(_ spec: FaultSpec) async {
        #expect(spec.validationError != nil)
        if case .success = await FaultInjector().add(spec) { Issue.record("accepted \(spec)") }
    }

    @Test func a429DefaultsToRetryAfterOneSecond() async throws {
        let faults = FaultInjector()
        _ = try await faults.add(FaultSpec(endpoint: "*", fault: .status, status: 429, latencyMs: 5)).get()
        let decision = try #require(await faults.decide(method: "GET", route: nil, path: "/"))
        #expect(decision.outcome == .status(429, retryAfterSeconds: 1))
        #expect(decision.latency == .milliseconds(5))
    }
}
