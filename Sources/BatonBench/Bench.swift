import BatonHTTP
import Foundation

/// `BatonBench serve-healthz PORT` and `BatonBench transport-bench URL`, used by `scripts/bench-http`.
enum Bench {
    /// The body both Baton and nginx serve on `/healthz` (the script writes the same bytes for nginx).
    static let healthzBody = #"{"status":"ok"}"#

    static func main(_ arguments: [String]) async {
        switch (arguments.dropFirst().first, arguments.dropFirst(2).first) {
        case ("serve-healthz", let port?) where UInt16(port) != nil:
            await serveHealthz(port: UInt16(port)!)
        case ("transport-bench", let url?):
            await TransportBench.run(url: url, seconds: Double(arguments.dropFirst(3).first ?? "3") ?? 3)
        case ("parse-links", let seconds):
            let rounds = arguments.dropFirst(3).first.flatMap { Int($0) } ?? 5
            ParseBench.run(seconds: seconds.flatMap(Double.init) ?? 1, rounds: rounds)
        case ("healthz-body", _):
            print(healthzBody, terminator: "")
        default:
            FileHandle.standardError.write(
                Data(
                    "usage: BatonBench serve-healthz PORT | transport-bench URL [SECONDS] | parse-links [SECONDS] [ROUNDS] | healthz-body\n"
                        .utf8))
            exit(2)
        }
    }

    static func serveHealthz(port: UInt16) async {
        let signals = ShutdownSignal()
        var router = Router()
        let body = Array(healthzBody.utf8)
        router.get("/healthz") { _ in HTTPResponse(headers: ["content-type": "application/json"], body: body) }
        var configuration = HTTPServerConfiguration()
        configuration.port = port
        configuration.logger = Logger(sink: DiscardLogSink())
        do {
            let server = try HTTPServer.start(configuration, router: router)
            FileHandle.standardOutput.write(Data("serving \(server.url("/healthz"))\n".utf8))
            _ = await signals.wait()
            await server.shutdown(grace: .seconds(5))
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }
}
