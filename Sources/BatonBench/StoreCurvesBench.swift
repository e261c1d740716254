import BatonServer
import Foundation
import Synchronization

/// `BatonBench store-curves` (`scripts/bench-curves`): how the store's cost grows with what it holds, on SQLite and
/// (when `BATON_TEST_POSTGRES_URL` is set) PostgreSQL.
///
/// 1. Claim latency (p50, p99 of `CURVE_SAMPLES` sequential claims of new keys) with 0, a tenth of and all of
///    `CURVE_RECORDS` live records stored (filled in bulk, ``BulkFill``), and the bytes those records take.
/// 2. A purge of `CURVE_RECORDS` expired records (``Store/purgeIdempotency(now:)``, what maintenance runs) while
///    8 tasks keep doing a share's two store writes (claim, then complete with a sealed response): how long the
///    purge takes, and those writes' p50 / p99 / max before and during it, and per 100 ms window.
///
/// Every figure is one `curve …` line of `name=value` fields, for the script to parse; `CURVE_SEALED_BYTES` is the
/// sealed response's size (the script measures a real one).
enum StoreCurvesBench {
    static func run(environment: [String: String]) async throws {
        let records = Int(environment["CURVE_RECORDS"] ?? "") ?? 1_000_000
        let samples = Int(environment["CURVE_SAMPLES"] ?? "") ?? 3_000
        let sealedBytes = Int(environment["CURVE_SEALED_BYTES"] ?? "") ?? 400
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-curves-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var engines: [(String, (String) async throws -> (any Store, BulkFill.Target))] = [
            (
                "sqlite",
                { name in
                    let path = directory.appendingPathComponent("\(name).sqlite").path
                    return (try await SQLiteStore.open(path: path), .sqlite(path: path))
                }
            )
        ]
        if let url = environment["BATON_TEST_POSTGRES_URL"] {
            engines.append(
                (
                    "postgres",
                    { name in
                        let schema = "curves_\(name)_\(UInt32.random(in: 0...UInt32.max))"
                        let store = try await PostgresStore.open(url: url, schema: schema, poolSize: 8)
                        return (store, .postgres(url: url, schema: schema))
                    }
                ))
        }
        emit("store curves: \(records) records, \(samples) claims per point, sealed responses of \(sealedBytes) B")
        let parts = Set((environment["CURVE_PARTS"] ?? "claims,purge").split(separator: ",").map(String.init))
        for (engine, open) in engines {
            if parts.contains("claims") {
                try await claimCurve(
                    engine: engine, open: open, records: records, samples: samples, sealedBytes: sealedBytes)
            }
            guard parts.contains("purge") else { continue }
            let (purgeStore, purgeTarget) = try await open("purge")
            try BulkFill.fill(
                purgeTarget, first: 0, count: records, expired: true, sealedBytes: sealedBytes, now: Date())
            try await purgeUnderLoad(engine: engine, store: purgeStore, records: records, sealedBytes: sealedBytes)
            await purgeStore.close()
        }
    }

    /// Claim latency with 0, a tenth of and all of `records` live records stored, and the bytes they take.
    static func claimCurve(
        engine: String, open: (String) async throws -> (any Store, BulkFill.Target), records: Int, samples: Int,
        sealedBytes: Int
    ) async throws {
        let (store, target) = try await open("claims")
        var stored = 0
        let baseBytes = try BulkFill.bytes(target)
        for size in [0, records / 10, records] where size >= stored {
            let started = ContinuousClock.now
            try BulkFill.fill(
                target, first: stored, count: size - stored, expired: false, sealedBytes: sealedBytes, now: Date())
            let fillSeconds = seconds(ContinuousClock.now - started)
            stored = size
            let bytes = try BulkFill.bytes(target)
            let latencies = try await claimLatencies(store: store, samples: samples, run: "\(engine)-\(size)")
            let perMillion = size > 0 ? Double(bytes - baseBytes) / Double(size) * 1e6 : 0
            emit(
                "curve \(engine) claims records=\(size) bytes=\(bytes) bytes_per_million=\(Int(perMillion)) "
                    + format(
                        "p50_ms=%.3f p99_ms=%.3f fill_s=%.1f", percentile(latencies, 0.5),
                        percentile(latencies, 0.99), fillSeconds))
        }
        await store.close()
    }

    /// `samples` sequential claims of new keys (after a tenth as many to warm up), each timed, in milliseconds.
    static func claimLatencies(store: any Store, samples: Int, run: String) async throws -> [Double] {
        let now = Date()
        var latencies: [Double] = []
        latencies.reserveCapacity(samples)
        for index in 0..<(samples + samples / 10) {
            let started = ContinuousClock.now
            let outcome = try await store.claim(
                user: "bench-user-\(index % 97)", key: "\(run)-\(index)", fingerprint: "f", owner: "bench",
                leaseUntil: now.addingTimeInterval(30), now: now)
            guard outcome == .claimed else { throw CancellationError() }
            if index >= samples / 10 { latencies.append(seconds(ContinuousClock.now - started) * 1000) }
        }
        return latencies.sorted()
    }

    /// Tells the load tasks to stop.
    final class StopFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    /// One share's store writes, timed: when it started (seconds since `origin`) and how long it took (ms).
    struct Write: Sendable {
        var at: Double
        var milliseconds: Double
        /// Whether the store threw instead of answering.
        var failed: Bool
    }

    /// Runs the purge of `records` expired records while 8 tasks claim and complete new keys; prints the figures.
    static func purgeUnderLoad(engine: String, store: any Store, records: Int, sealedBytes: Int) async throws {
        let origin = ContinuousClock.now
        let stop = StopFlag()
        let sealed = [UInt8](repeating: 7, count: sealedBytes)
        let load = Task {
            try await withThrowingTaskGroup(of: [Write].self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var writes: [Write] = []
                        var index = 0
                        while !stop.value.load(ordering: .relaxed) {
                            let started = ContinuousClock.now
                            let now = Date()
                            let key = "load-\(worker)-\(index)"
                            var failed = false
                            do {
                                _ = try await store.claim(
                                    user: "load-user-\(worker)", key: key, fingerprint: "f", owner: "bench",
                                    leaseUntil: now.addingTimeInterval(30), now: now)
                                _ = try await store.complete(
                                    user: "load-user-\(worker)", key: key, owner: "bench", responseStatus: 201,
                                    sealedResponse: sealed, responseExpiresAt: now.addingTimeInterval(900), now: now)
                            } catch {
                                failed = true  // the store gave up waiting (`busy`): the share would fail
                            }
                            writes.append(
                                Write(
                                    at: seconds(started - origin),
                                    milliseconds: seconds(ContinuousClock.now - started) * 1000, failed: failed))
                            index += 1
                        }
                        return writes
                    }
                }
                return try await group.reduce(into: [Write]()) { $0 += $1 }
            }
        }
        try await Task.sleep(for: .seconds(2))
        let purgeStart = seconds(ContinuousClock.now - origin)
        let purge = try await store.purgeIdempotency(now: Date())
        let purgeEnd = seconds(ContinuousClock.now - origin)
        try await Task.sleep(for: .seconds(1))
        stop.value.store(true, ordering: .relaxed)
        let writes = try await load.value.sorted { $0.at < $1.at }

        // Before: finished before the purge started; during: running at any moment while it ran.
        func summary(_ name: String, _ included: (Write) -> Bool) -> String {
            let chosen = writes.filter(included)
            let latencies = chosen.map(\.milliseconds).sorted()
            return format(
                "\(name)_writes=%d \(name)_failed=%d \(name)_p50_ms=%.3f \(name)_p99_ms=%.3f \(name)_max_ms=%.3f",
                latencies.count, chosen.filter(\.failed).count, percentile(latencies, 0.5), percentile(latencies, 0.99),
                latencies.last ?? .nan)
        }
        emit(
            "curve \(engine) purge records=\(records) deleted=\(purge.recordsDeleted) "
                + format("seconds=%.3f ", purgeEnd - purgeStart)
                + summary("before") { $0.at + $0.milliseconds / 1000 < purgeStart } + " "
                + summary("during") { $0.at < purgeEnd && $0.at + $0.milliseconds / 1000 >= purgeStart })
        var window = 0.0
        while window < (writes.last?.at ?? 0) {
            let latencies = writes.filter { (window..<window + 0.1).contains($0.at) }.map(\.milliseconds).sorted()
            let purging = window + 0.1 > purgeStart && window < purgeEnd ? 1 : 0
            emit(
                "curve \(engine) window "
                    + format(
                        "t=%.1f writes=%d p99_ms=%.3f max_ms=%.3f purging=%d", window - purgeStart, latencies.count,
                        percentile(latencies, 0.99), latencies.last ?? 0, purging))
            window += 0.1
        }
    }

    /// Writes a line to stdout at once (unbuffered, so the script sees progress through its pipe).
    static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func percentile(_ sorted: [Double], _ q: Double) -> Double {
        sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func format(_ template: String, _ arguments: any CVarArg...) -> String {
        String(format: template, arguments: arguments)
    }
}
