import BatonCore

/// The results of `baton conformance`, as text for people or as the shell adapter's JSON object for
/// `scripts/partner_contracts/check_renderer_conformance.py` (docs/CONTRACTS.md "Conformance reports").
struct ConformanceReport {
    /// The shell every case here ran on.
    static let shell = "swift"

    private(set) var results: [ConformanceRunner.CaseResult] = []

    /// Cases whose check ran and held.
    var passed: Int { results.count { $0.outcome == .passed } }
    /// Cases whose check ran and did not hold.
    var failed: Int { results.count { $0.outcome == .failed } }
    /// Cases nothing here executed.
    var notRun: Int { results.count { $0.outcome == .notRun } }

    mutating func append(_ more: [ConformanceRunner.CaseResult]) { results += more }

    /// `{"shell":"swift","cases":[{"file","section","id","result","detail"?}]}` on one line.
    var json: String {
        let cases = results.map { result in
            var members: [JSONValue.Member] = [
                .init("file", .string(result.file)), .init("section", .string(result.section)),
                .init("id", .string(result.id)), .init("result", .string(result.outcome.rawValue)),
            ]
            if let detail = result.detail { members.append(.init("detail", .string(detail))) }
            return JSONValue.object(members)
        }
        return JSONValue.object([.init("shell", .string(Self.shell)), .init("cases", .array(cases))]).rendered
    }

    /// One line per file and section, one per failed or not-run case (every case with `verbose`), the not-run count,
    /// and last `N passed, N failed` alone on its line. Passed and failed count only the cases whose check ran.
    func lines(verbose: Bool) -> [String] {
        var lines = ["shell: \(Self.shell) (BatonCore and BatonClient's flow machines, in this process)"]
        var groups: [(key: String, results: [ConformanceRunner.CaseResult])] = []
        for result in results {
            let key = result.file + (result.file.hasPrefix("renderer-conformance.") ? " \(result.section)" : "")
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].results.append(result)
            } else {
                groups.append((key, [result]))
            }
        }
        for group in groups {
            let ran = group.results.filter { $0.outcome != .notRun }
            let failed = ran.count { $0.outcome == .failed }
            let skipped = group.results.count - ran.count
            lines.append(
                "\(group.key): \(ran.count - failed) passed, \(failed) failed"
                    + (skipped > 0 ? ", \(skipped) not run" : ""))
            // A whole file nothing here ran, all for one reason (the app-side interaction.v1.json), is one line.
            if !verbose, ran.isEmpty, group.key == group.results[0].file, let reason = group.results[0].detail,
                group.results.allSatisfy({ $0.detail == reason })
            {
                lines.append("  not run [\(Self.shell)] all \(skipped) cases: \(reason)")
                continue
            }
            for result in group.results where result.outcome != .passed || verbose {
                let mark =
                    switch result.outcome {
                    case .passed: "ok     "
                    case .failed: "FAIL   "
                    case .notRun: "not run"
                    }
                lines.append("  \(mark) [\(Self.shell)] \(result.id)\(result.detail.map { ": \($0)" } ?? "")")
            }
        }
        lines.append("\(notRun) not run (no check for them in this shell; other shells or swift test run them)")
        lines.append("\(passed) passed, \(failed) failed")
        return lines
    }
}
