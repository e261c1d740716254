import Foundation

/// `baton conformance`: runs every `Conformance/*.json` vector file against BatonCore and BatonClient's machines.
struct ConformanceCommand: Subcommand {
    let name = "conformance"
    let summary =
        "run the Conformance/*.json vector files on the Swift shell; each case passed, failed or not run; ends with "
        + "\"N passed, N failed\""
    let synopsis = ["baton conformance [--dir DIR] [--verbose | --json]"]
    let options: [OptionSpec] = [
        .value("--dir", "DIR", help: "the folder holding the vector files (default ./Conformance)"),
        .flag("--verbose", help: "list every case, not only failed and not-run ones"),
        .flag(
            "--json",
            help: "print one JSON object {\"shell\":\"swift\",\"cases\":[…]} (docs/CONTRACTS.md, Conformance reports)"),
    ]

    func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        guard !(arguments.flags.contains("--json") && arguments.flags.contains("--verbose")) else {
            throw UsageError("--json and --verbose cannot be combined")
        }
        let directory = URL(fileURLWithPath: arguments.value("--dir") ?? "Conformance")
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "json" }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        } catch {
            throw UsageError("cannot read the vector folder '\(directory.path)'")
        }
        guard !files.isEmpty else { throw UsageError("no *.json vector files in '\(directory.path)'") }

        var report = ConformanceReport()
        for file in files { report.append(ConformanceRunner.run(file: file)) }
        if arguments.flags.contains("--json") {
            console.print(report.json)
        } else {
            for line in report.lines(verbose: arguments.flags.contains("--verbose")) { console.print(line) }
        }
        return report.failed == 0 ? 0 : 1
    }
}
