import BatonHTTP
import Foundation

/// Sequential and 64-way concurrent GETs through each transport, with requests/s and CPU per request.
enum TransportBench {
    struct Result {
        var requests: Int
        var seconds: Double
        var cpuSeconds: Double
        var failures: Int

        var perSecond: Double { Double(requests) / seconds }
        var cpuMicrosecondsPerRequest: Double { cpuSeconds / Double(max(1, requests)) * 1e6 }
    }

    static func run(url: String, seconds: Double) async {
        let transports: [(String, any HTTPTransport)] = [
            ("CurlTransport", CurlTransport()), ("URLSessionTransport", URLSessionTransport()),
        ]
        print("transport benchmark against \(url), \(seconds) s per cell")
        print(pad("transport", 22) + pad("mode", 14) + pad("req/s", 12) + pad("CPU µs/req", 12) + "failures")
        for (name, transport) in transports {
            for (mode, workers) in [("sequential", 1), ("concurrent64", 64)] {
                _ = await measure(transport, url: url, workers: workers, seconds: 0.5)  // warm up connections
                let result = await measure(transport, url: url, workers: workers, seconds: seconds)
                print(
                    pad(name, 22) + pad(mode, 14) + pad(String(format: "%.0f", result.perSecond), 12)
                        + pad(String(format: "%.1f", result.cpuMicrosecondsPerRequest), 12) + "\(result.failures)")
            }
        }
    }

    static func measure(_ transport: any HTTPTransport, url: String, workers: Int, seconds: Double) async -> Result {
        let cpuStart = cpuTime()
        let start = Date()
        let deadline = start.addingTimeInterval(seconds)
        let counts = await withTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<workers {
                group.addTask {
                    var done = 0
                    var failed = 0
                    while Date() < deadline {
                        do {
                            let response = try await transport.send(OutboundRequest(url: url))
                            if response.status == 200 { done += 1 } else { failed += 1 }
                        } catch {
                            failed += 1
                        }
                    }
                    return (done, failed)
                }
            }
            return await group.reduce(into: (0, 0)) { $0 = ($0.0 + $1.0, $0.1 + $1.1) }
        }
        let elapsed = Date().timeIntervalSince(start)
        return Result(requests: counts.0, seconds: elapsed, cpuSeconds: cpuTime() - cpuStart, failures: counts.1)
    }

    /// User plus system CPU time of this process, in seconds.
    static func cpuTime() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
