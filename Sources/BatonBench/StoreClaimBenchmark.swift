import BatonServer
import Foundation

/// Measures idempotency-claim throughput of a `Store`: every claim is a first request (a new key), the
/// hot path of `POST /v2/handoff-sessions`, issued by `concurrency` tasks at once.
enum StoreClaimBenchmark {
    /// One measurement.
    struct Result: Sendable {
        /// Claims completed.
        var claims: Int
        /// Wall-clock seconds they took.
        var seconds: Double
        /// Claims per second.
        var claimsPerSecond: Double { Double(claims) / seconds }
    }

    /// Runs `claims` claims of distinct keys from `concurrency` tasks and times them.
    ///
    /// - Throws: `StoreError`, or `CancellationError` if a claim did not report `.claimed`.
    static func run(store: any Store, claims: Int, concurrency: Int, run: String) async throws -> Result {
        let now = Date()
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var index = worker
                    while index < claims {
                        let outcome = try await store.claim(
                            user: "bench-user-\(index % 97)", key: "\(run)-\(index)", fingerprint: "f",
                            owner: "bench", leaseUntil: now.addingTimeInterval(30), now: now)
                        guard outcome == .claimed else { throw CancellationError() }
                        index += concurrency
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Result(claims: claims, seconds: seconds)
    }
}
