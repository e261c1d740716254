import BatonCore
import Foundation

/// `baton verify-backend`: runs the app-facing contract against any partner backend, black-box, with a
/// `baton sandbox` as its providers (docs/bring-your-own-backend.md).
struct VerifyBackendCommand: Subcommand {
    let name = "verify-backend"
    let summary =
        "check a partner backend against the app-facing contract (docs/CONTRACTS.md §2), using a baton sandbox as "
        + "its providers"
    let synopsis = [
        "baton verify-backend --backend URL --sandbox URL… (--token-command 'CMD {user}' | --token USER=TOKEN…)",
        "                     [--flows chia,privue,bb] [--privue-workflow NAME] [--json]",
    ]
    let options: [OptionSpec] = [
        .value("--backend", "URL", help: "the partner backend's base URL (http://127.0.0.1:8080)"),
        .value(
            "--sandbox", "URL", repeatable: true,
            help: "the baton sandbox the backend uses: its Chia origin (Privue and BB on the next two ports are "
                + "found), or each origin; several may be comma-separated"),
        .value(
            "--token-command", "CMD",
            help: "a shell command printing an app token for the user id that replaces {user} (or the JSON of "
                + "POST /web/dev-token)"),
        .value("--token", "USER=TOKEN", repeatable: true, help: "a fixed app token for a test user (give two users)"),
        .value("--flows", "LIST", help: "the flows the backend implements, comma-separated (default chia,privue,bb)"),
        .value("--privue-workflow", "NAME", help: "a Privue workflow the backend offers (default merchant-onboarding)"),
        .flag("--json", help: "print one JSON object with every check instead of the table"),
    ]

    func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        let options = try Self.options(from: arguments)
        let json = arguments.flags.contains("--json")
        let verifier = BackendVerifier(options: options)
        if !json {
            console.print("baton verify-backend: \(options.base) (flows: \(Self.flowList(options.flows)))")
        }
        let results = await verifier.run { result in
            if !json { console.print(VerifyReport.line(result)) }
        }
        if json {
            console.print(VerifyReport.json(results, base: options.base))
        } else {
            for line in VerifyReport.summary(results) { console.print(line) }
        }
        return VerifyReport.count(results, .failed) > 0 ? 1 : 0
    }

    static func flowList(_ flows: Set<VerifyFlow>) -> String {
        VerifyFlow.allCases.filter(flows.contains).map(\.rawValue).joined(separator: ",")
    }

    static func options(from arguments: ParsedArguments) throws(UsageError) -> BackendVerifier.Options {
        guard let base = arguments.value("--backend") else { throw UsageError("--backend URL is required") }
        guard Self.isHTTPOrigin(base) else { throw UsageError("--backend must be an http(s) URL") }
        let sandbox = arguments.allValues("--sandbox").flatMap { $0.split(separator: ",").map(String.init) }
        guard !sandbox.isEmpty else { throw UsageError("--sandbox URL is required (the baton sandbox's Chia origin)") }
        for url in sandbox where !Self.isHTTPOrigin(url) { throw UsageError("--sandbox must be an http(s) URL") }
        let tokens: TokenSource
        switch (arguments.value("--token-command"), arguments.allValues("--token")) {
        case (let command?, []):
            guard command.contains("{user}") else { throw UsageError("--token-command must contain {user}") }
            tokens = .command(command)
        case (nil, let values) where !values.isEmpty: tokens = try TokenSource.fixed(from: values)
        case (nil, _): throw UsageError("give --token-command 'CMD {user}' or --token USER=TOKEN")
        default: throw UsageError("give either --token-command or --token, not both")
        }
        var options = BackendVerifier.Options(base: base, tokens: tokens, sandbox: sandbox)
        if let list = arguments.value("--flows") {
            var flows = Set<VerifyFlow>()
            for word in list.split(separator: ",") {
                guard let flow = VerifyFlow(rawValue: String(word)) else {
                    throw UsageError("--flows: unknown flow '\(word)' (chia, privue, bb)")
                }
                flows.insert(flow)
            }
            guard !flows.isEmpty else { throw UsageError("--flows: name at least one flow") }
            options.flows = flows
        }
        if let workflow = arguments.value("--privue-workflow") { options.privueWorkflow = workflow }
        return options
    }

    static func isHTTPOrigin(_ url: String) -> Bool {
        guard let parts = RawURLComponents(url) else { return false }
        return ["http", "https"].contains(parts.normalizedScheme)
    }
}
