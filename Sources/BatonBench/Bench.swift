import BatonHTTP
import Foundation

/// `BatonBench SUBCOMMAND [ARGUMENTS]`: every benchmark the `scripts/bench-*` scripts run, one subcommand each, in
/// one executable so a single release build serves them all.
enum Bench {
    /// The body both Baton and nginx serve on `/healthz` (the script writes the same bytes for nginx).
    static let healthzBody = #"{"status":"ok"}"#

    /// Every subcommand, its arguments and the script that runs it.
    static let usage = """
        usage: BatonBench SUBCOMMAND [ARGUMENTS]
          serve-healthz PORT                  serve \(healthzBody) on /healthz until SIGINT or SIGTERM (bench-http)
          transport-bench URL [SECONDS]       GETs through each outbound transport, 3 s per cell (bench-http)
          healthz-body                        print the /healthz body, for nginx to serve the same (bench-http)
          parse-links [SECONDS] [ROUNDS]      return-link parsing rate per parser on one core (bench-parse)
          store-claims                        idempotency claims per second, SQLite and PostgreSQL (bench-store);
                                              env BATON_BENCH_CLAIMS, BATON_BENCH_CONCURRENCY, BATON_TEST_POSTGRES_URL
          store-curves                        claim latency vs stored records, bytes per million, a purge under load
                                              (bench-curves); env CURVE_RECORDS, CURVE_SAMPLES, CURVE_SEALED_BYTES,
                                              BATON_TEST_POSTGRES_URL
          store-fill SQLITE-PATH COUNT [BYTES] add COUNT expired idempotency records (sealed responses of BYTES, 400)
                                              to a migrated SQLite store, for a purge under load (bench-curves)
          catalog [--runs N] [--sync-runs N]  catalog projection and sync timings (bench-catalog)
          -h, --help                          print this text

        """

    /// Runs the subcommand `arguments` (`CommandLine.arguments`) names. No subcommand or an unknown one prints the
    /// usage to stderr and exits 2; a benchmark that fails prints its error to stderr and exits 1.
    static func main(_ arguments: [String]) async {
        do {
            try await run(arguments)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }

    private static func run(_ arguments: [String]) async throws {
        switch (arguments.dropFirst().first, arguments.dropFirst(2).first) {
        case ("serve-healthz", let text?):
            guard let port = UInt16(text) else { refuseUsage() }
            try await serveHealthz(port: port)
        case ("transport-bench", let url?):
            await TransportBench.run(url: url, seconds: Double(arguments.dropFirst(3).first ?? "3") ?? 3)
        case ("parse-links", let seconds):
            let rounds = arguments.dropFirst(3).first.flatMap { Int($0) } ?? 5
            ParseBench.run(seconds: seconds.flatMap(Double.init) ?? 1, rounds: rounds)
        case ("healthz-body", _):
            print(healthzBody, terminator: "")
        case ("store-claims", _):
            try await StoreClaimsBench.run(environment: ProcessInfo.processInfo.environment)
        case ("store-curves", _):
            try await StoreCurvesBench.run(environment: ProcessInfo.processInfo.environment)
        case ("store-fill", let path?):
            guard let count = arguments.dropFirst(3).first.flatMap({ Int($0) }) else { refuseUsage() }
            let bytes = arguments.dropFirst(4).first.flatMap { Int($0) } ?? 400
            try BulkFill.fill(
                .sqlite(path: path), first: 0, count: count, expired: true, sealedBytes: bytes, now: Date())
        case ("catalog", _):
            try await CatalogBench.run(arguments: Array(arguments.dropFirst(2)))
        case ("-h", _), ("--help", _):
            print(usage, terminator: "")
        default:
            refuseUsage()
        }
    }

    /// Prints the usage to stderr and exits 2 (no subcommand, an unknown one, or a malformed argument).
    private static func refuseUsage() -> Never {
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }

    /// Serves ``healthzBody`` on `/healthz` on 127.0.0.1:`port`, with no access log, until SIGINT or SIGTERM.
    static func serveHealthz(port: UInt16) async throws {
        let signals = ShutdownSignal()
        var router = Router()
        let body = Array(healthzBody.utf8)
        router.get("/healthz") { _ in HTTPResponse(headers: ["content-type": "application/json"], body: body) }
        var configuration = HTTPServerConfiguration()
        configuration.port = port
        configuration.logger = Logger(sink: DiscardLogSink())
        let server = try HTTPServer.start(configuration, router: router)
        FileHandle.standardOutput.write(Data("serving \(server.url("/healthz"))\n".utf8))
        _ = await signals.wait()
        await server.shutdown(grace: .seconds(5))
    }
}
