import Foundation

/// `baton conformance`: runs every `Conformance/*.json` vector file against BatonCore.
struct ConformanceCommand: Subcommand {
    let name = "conformance"
    let summary = "run the Conformance/*.json vector files against BatonCore; ends with \"N passed, N failed\""
    let synopsis = ["baton conformance [--dir DIR]"]
    let options: [OptionSpec] = [
        .value("--dir", "DIR", help: "the folder holding the vector files (default ./Conformance)"),
        .flag("--verbose", help: "list every case, not only failures"),
    ]

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
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

        var passed = 0
        var failed = 0
        for file in files {
            let results = ConformanceRunner.run(file: file)
            if results.isEmpty && file.lastPathComponent.hasPrefix("interaction.") {
                console.print(
                    "\(file.lastPathComponent): skipped here (app-side event sequences; swift test runs them against "
                        + "BatonClient's flow machines)")
                continue
            }
            let filePassed = results.filter(\.passed).count
            let fileFailed = results.count - filePassed
            passed += filePassed
            failed += fileFailed
            console.print("\(file.lastPathComponent): \(filePassed) passed, \(fileFailed) failed")
            for result in results where !result.passed || arguments.flags.contains("--verbose") {
                console.print(
                    "  \(result.passed ? "ok  " : "FAIL") \(result.id)\(result.detail.map { ": \($0)" } ?? "")")
            }
        }
        console.print("\(passed) passed, \(failed) failed")
        return failed == 0 ? 0 : 1
    }
}
