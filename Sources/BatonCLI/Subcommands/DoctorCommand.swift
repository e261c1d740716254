import BatonServer
import Foundation

/// `baton doctor`: checks a configuration (file plus `BATON_*` secrets from the environment) line by line, each
/// line `ok|warn|fail field: message` with a fix under it; exit 1 when any line fails.
struct DoctorCommand: Subcommand {
    let name = "doctor"
    let summary = "check a configuration line by line and say what to fix (exit 1 if anything fails)"
    let synopsis = [
        "baton doctor [--config FILE] [--timeout SECONDS] [--offline | --live https://ORIGIN [--ca-file PEM]]"
    ]
    let options: [OptionSpec] = [
        .value(
            "--config", "FILE", help: "the JSON configuration (default ./baton.json); secrets come from BATON_* env"),
        .value("--timeout", "SECONDS", help: "how long to wait for each provider origin (default 3)"),
        .flag("--offline", help: "skip the checks that need the network (provider origins, a PostgreSQL store)"),
        .value(
            "--live", "ORIGIN",
            help: "also fetch the deployed well-known files of every configured host from this https address"),
        .value("--ca-file", "PEM", help: "with --live: trust these CA certificates instead of the system's (tests)"),
    ]

    func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        var timeout = 3
        if let text = arguments.value("--timeout") {
            guard let seconds = Int(text), (1...60).contains(seconds) else {
                throw UsageError("--timeout must be a number of seconds from 1 to 60")
            }
            timeout = seconds
        }
        var live: LiveWellKnownCheck?
        if let origin = arguments.value("--live") {
            do {
                live = try LiveWellKnownCheck(
                    origin: origin, caFile: arguments.value("--ca-file"), timeout: .seconds(timeout))
            } catch {
                throw UsageError(error.message)
            }
        } else if arguments.value("--ca-file") != nil {
            throw UsageError("--ca-file needs --live")
        }
        let path = arguments.value("--config") ?? "baton.json"
        guard let file = FileManager.default.contents(atPath: path) else {
            console.printError("baton doctor: cannot read the configuration file '\(path)' (see docs/configuration.md)")
            return 1
        }
        let environment = ProcessInfo.processInfo.environment
        let offline = arguments.flags.contains("--offline")
        if offline && live != nil { throw UsageError("--offline and --live cannot be used together") }
        let doctor = ConfigurationDoctor(timeout: .seconds(timeout))
        let report = await doctor.check(json: file, environment: environment, offline: offline, live: live)
        console.print("baton doctor: \(path)")
        for finding in report.findings { console.print(finding.description) }
        console.print("doctor: \(report.summary)")
        return report.hasFailures ? 1 : 0
    }
}
