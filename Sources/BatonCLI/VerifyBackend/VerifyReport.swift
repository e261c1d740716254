import BatonCore

/// How `baton verify-backend` prints its results: a table (one line per check, as it finishes) or one JSON object,
/// and the closing `N passed, N failed` line.
enum VerifyReport {
    static func line(_ result: VerifyCheckResult) -> String {
        let mark =
            switch result.outcome {
            case .passed: "pass   "
            case .failed: "FAIL   "
            case .notRun: "not run"
            }
        var line = "\(mark)  \(result.id.padding(toLength: 40, withPad: " ", startingAt: 0))  \(result.contract)"
        if !result.detail.isEmpty { line += "\n         \(String(repeating: " ", count: 40))  → \(result.detail)" }
        return line
    }

    static func count(_ results: [VerifyCheckResult], _ outcome: VerifyCheckResult.Outcome) -> Int {
        results.filter { $0.outcome == outcome }.count
    }

    /// `N not run` (when any), then `N passed, N failed` (executed checks only).
    static func summary(_ results: [VerifyCheckResult]) -> [String] {
        let notRun = count(results, .notRun)
        return (notRun > 0 ? ["\(notRun) not run"] : [])
            + ["\(count(results, .passed)) passed, \(count(results, .failed)) failed"]
    }

    static func json(_ results: [VerifyCheckResult], base: String) -> String {
        let value: JSONValue = [
            "backend": .string(base), "checks": .array(results.map(\.json)),
            "passed": .integer(count(results, .passed)), "failed": .integer(count(results, .failed)),
            "notRun": .integer(count(results, .notRun)),
        ]
        return value.rendered
    }
}
