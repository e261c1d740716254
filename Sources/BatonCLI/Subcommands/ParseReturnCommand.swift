/// `baton parse-return`: parses one return link per CONTRACTS §1 and prints one JSON object; exit 0 either way.
struct ParseReturnCommand: Subcommand {
    let name = "parse-return"
    let summary = "parse a return link as the app would and print the result as one JSON object"
    let synopsis = [
        "baton parse-return --flow connect --registered URL [--registered URL ...] URL",
        "baton parse-return --flow verification --registered URL [--registered URL ...] URL",
        "baton parse-return --flow generic --registered-host HOST URL",
    ]
    let options: [OptionSpec] = [
        .value("--flow", "FLOW", help: "connect (BB), verification (Privue) or generic (Chia)"),
        .value("--registered", "URL", repeatable: true, help: "a registered return URL (connect, verification)"),
        .value("--registered-host", "HOST", help: "the registered generic return host (generic)"),
    ]

    func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
        guard let flow = arguments.value("--flow") else { throw UsageError("missing --flow") }
        guard arguments.positionals.count == 1, let url = arguments.positionals.first else {
            throw UsageError(arguments.positionals.isEmpty ? "missing the URL to parse" : "expected exactly one URL")
        }
        let report = try ReturnLinkReport.parse(
            url: url, flow: flow, registered: arguments.allValues("--registered"),
            registeredHost: arguments.value("--registered-host"))
        console.print(report.rendered)
        return 0
    }
}
