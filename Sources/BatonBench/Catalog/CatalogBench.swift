import BatonCore
import BatonHTTP
import BatonSandbox
import BatonServer
import Foundation

/// `BatonBench catalog [--runs N] [--sync-runs N]` (`scripts/bench-catalog`, release build):
///
/// 1. projection: ``CatalogService/cards(for:now:)`` for one user over a 10,000-item publication (goal < 20 ms),
///    median of the runs, plus the whole `GET /v2/catalog` handler (projection + JSON);
/// 2. sync: one full pass against the Chia sandbox over HTTP on 127.0.0.1 — catalog fetch, 1,000 distinct images
///    downloaded, checked, hashed and stored (SQLite) — median of fresh runs, plus a `304` pass.
@MainActor
struct CatalogBench {
    /// Runs both benchmarks; `arguments` are those after the subcommand (`--runs` 50, `--sync-runs` 3).
    static func run(arguments: [String]) async throws {
        let runs = try count(after: "--runs", in: arguments, default: 50)
        let syncRuns = try count(after: "--sync-runs", in: arguments, default: 3)
        let sandbox = try await ProviderSandbox.start(configuration: .generated())
        let key = sandbox.configuration.chiaAPIKey
        let assets = try BenchAssetOrigin(key: key)
        defer { _ = assets }

        // 1. Projection over 10,000 items (three fixture images shared, so the sync mirrors three).
        let projectionItems = (0..<10_000).map {
            item(index: $0, assetID: ["img_weight_care", "img_skin_consult"][$0 % 2])
        }
        try await sandbox.chia.publish(items: projectionItems, lifetime: 3600)
        let big = try await Pipeline.make(sandbox: sandbox, assetOrigin: sandbox.chiaOrigin)
        var bigOutcome = CatalogSyncOutcome.skipped
        let bigSync = await ContinuousClock().measure { bigOutcome = await big.sync.syncOnce() }
        let user = AuthenticatedUser(id: "bench_user")
        var shown = 0
        let projection = try await measure(runs: runs) {
            shown = try await big.service.cards(for: user, now: Date()).count
        }
        var request = HTTPRequest(method: .get, path: "/v2/catalog")
        request.attributes[AuthenticatedUserKey.self] = user
        var bytes = 0
        let handler = try await measure(runs: max(5, runs / 5)) {
            bytes = try await big.service.catalogResponse(request).body.count
        }
        print("catalog projection: 10000 items, 1 user, \(shown) cards shown")
        print("  sync + index build   \(ms(bigSync)) ms  (\(bigOutcome))")
        print("  cards(for:now:)      median \(ms(projection.median)) ms  (min \(ms(projection.min)), \(runs) runs)")
        print("  GET /v2/catalog      median \(ms(handler.median)) ms  (\(bytes) bytes of JSON)")
        await big.close()

        // 2. Sync of 1,000 items with 1,000 distinct images.
        var syncTimes: [Duration] = []
        var notModifiedTimes: [Duration] = []
        var lastOutcome = ""
        for run in 0..<syncRuns {
            let items = (0..<1_000).map { item(index: $0, assetID: "bench_\(run)_\($0)") }
            try await sandbox.chia.publish(items: items, lifetime: 3600)
            let pipeline = try await Pipeline.make(sandbox: sandbox, assetOrigin: assets.origin)
            let clock = ContinuousClock()
            var outcome = CatalogSyncOutcome.skipped
            syncTimes.append(await clock.measure { outcome = await pipeline.sync.syncOnce() })
            lastOutcome = "\(outcome)"
            notModifiedTimes.append(await clock.measure { _ = await pipeline.sync.syncOnce() })
            await pipeline.close()
        }
        let sync = Summary(syncTimes)
        print("catalog sync: 1000 items, 1000 distinct images, SQLite store, \(syncRuns) fresh runs (\(lastOutcome))")
        print("  full pass            median \(ms(sync.median)) ms  (min \(ms(sync.min)))")
        print("  304 pass             median \(ms(Summary(notModifiedTimes).median)) ms")
        await assets.server.shutdown(grace: .seconds(1))
        await sandbox.shutdown()
    }

    /// Item `index` of a benchmark publication: a sandbox fixture with its own id, image and regions.
    static func item(index: Int, assetID: String) -> CatalogItem {
        var item = ChiaFixtures.items(neutralOrigin: "https://chia.example")[index % 2]
        item.id = "cat_\(index)"
        item.imageAssetID = assetID
        item.regions = index % 5 == 0 ? ["DE"] : ["US", "GB"]
        return item
    }

    /// The positive whole number after `option`, `fallback` without the option; an error for a missing or bad value.
    static func count(after option: String, in arguments: [String], default fallback: Int) throws -> Int {
        guard let index = arguments.firstIndex(of: option) else { return fallback }
        guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else {
            throw UsageError(message: "\(option) needs a whole number of at least 1")
        }
        return value
    }

    /// Times `runs` calls of `body` after one warm-up call.
    static func measure(runs: Int, _ body: () async throws -> Void) async throws -> Summary {
        let clock = ContinuousClock()
        try await body()  // warm up
        var times: [Duration] = []
        for _ in 0..<runs { times.append(try await clock.measure { try await body() }) }
        return Summary(times)
    }

    /// `duration` in milliseconds, two decimals.
    static func ms(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.2f", value)
    }
}

/// The median and the minimum of a set of timings.
struct Summary {
    let median: Duration
    let min: Duration

    init(_ times: [Duration]) {
        let sorted = times.sorted()
        median = sorted[sorted.count / 2]
        min = sorted[0]
    }
}

/// A bad command-line value, reported by `BatonBench` on standard error (exit 1).
struct UsageError: Error, CustomStringConvertible {
    let message: String
    var description: String { "catalog: \(message)" }
}
