import BatonCore
import Foundation

/// `BatonBench parse-links [SECONDS] [ROUNDS]` (`scripts/bench-parse`): return-link parsing rate on one thread, per
/// parser, over a fixed mix of returns and near-misses (the shapes a device delivers). Each round gives every parser
/// SECONDS of this thread's CPU time (so other work on a shared machine does not count against it); the median of
/// the rounds is printed in links per second next to the goal (over a million on one core).
enum ParseBench {
    static let connectLinks = [
        "https://app.example.com/bb-callback?sessionId=cs_AbCdEfGhIjKlMnOpQrStUvWx&resultCode=Ok&connectionId=conn_1",
        "acmewallet://bb-callback?sessionId=cs_AbCdEfGhIjKlMnOpQrStUvWx&resultCode=Cancelled",
        "https://app.example.com/bb-callback?sessionId=cs_x&resultCode=Error&error=access_denied%20by%2Buser",
        "https://APP.example.com:443/bb-callback?app=1&sessionId=cs_y&resultCode=ok",
        "https://evil.example/bb-callback?sessionId=cs_z&resultCode=Ok",
        "https://app.example.com/bb-callback#sessionId=cs_z&resultCode=Ok",
    ]
    static let verificationLinks = [
        "https://app.example.com/kyc/done?verification_id=ver_0123456789&status=approved",
        "https://app.example.com/kyc/done?status=pending",
        "http://app.example.com/kyc/done?verification_id=ver_1",
    ]
    static let genericLinks = [
        "https://partner.example/anything?x=1", "https://partner.example:8443/", "partner.example",
    ]

    /// The goal: over a million links per second on one core.
    static let goal = 1_000_000

    static func run(seconds: Double, rounds: Int) {
        let parsers: [(name: String, links: [String], parse: (String) -> Bool)]
        do {
            let connect = try ConnectReturnParser(
                registered: ["https://app.example.com/bb-callback", "acmewallet://bb-callback"])
            let verification = try VerificationReturnParser(registered: ["https://app.example.com/kyc/done"])
            let generic = try GenericReturnParser(registeredHost: "partner.example")
            parsers = [
                ("connect", connectLinks, { connect.parse($0).accepted != nil }),
                ("verification", verificationLinks, { verification.parse($0).accepted != nil }),
                ("generic", genericLinks, { generic.parse($0).accepted != nil }),
            ]
        } catch {
            print("parse-links: registration failed")
            return
        }
        var rates = Array(repeating: [Double](), count: parsers.count)
        for _ in 0..<max(rounds, 1) {
            for (index, parser) in parsers.enumerated() {
                rates[index].append(measure(parser.links, seconds, parser.parse))
            }
        }
        for (index, parser) in parsers.enumerated() {
            let sorted = rates[index].sorted()
            let median = Int(sorted[sorted.count / 2])
            let (lowest, highest) = (Int(sorted.first ?? 0), Int(sorted.last ?? 0))
            print(
                "parse-links \(parser.name): \(median) links/s on one core, median of \(sorted.count) "
                    + "(\(lowest)…\(highest)); goal > \(goal): "
                    + (median > goal ? "met" : "missed"))
        }
    }

    /// Links parsed per second of this thread's CPU time, over `seconds` of it.
    private static func measure(_ links: [String], _ seconds: Double, _ parse: (String) -> Bool) -> Double {
        var parsed = 0
        var returns = 0
        let start = threadCPUSeconds()
        while threadCPUSeconds() - start < seconds {
            for _ in 0..<1000 {
                for link in links where parse(link) { returns += 1 }
                parsed += links.count
            }
        }
        precondition(returns > 0, "the link mix has returns")
        return Double(parsed) / (threadCPUSeconds() - start)
    }

    /// CPU time this thread has used, in seconds.
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
