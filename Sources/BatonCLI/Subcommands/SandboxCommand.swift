import BatonCore
import BatonHTTP
import BatonSandbox
import Foundation

/// `baton sandbox`: the three provider simulators on 127.0.0.1 until Ctrl-C, with dev keys generated on the first run
/// and kept in the state folder (`./.baton/secrets.json`), so a backend configured with them survives a restart.
struct SandboxCommand: Subcommand {
    let name = "sandbox"
    let summary = "run the Chia, Privue and BB simulators on 127.0.0.1 (PORT, PORT+1, PORT+2) until Ctrl-C"
    let synopsis = [
        "baton sandbox [--port 9001] [--privue-webhook URL] [--bb-webhook URL] [--privue-return URL]…",
        "              [--bb-return URL]… [--privue-account SLUG] [--state DIR] [--env-file PATH]",
        "              [--clock-offset SECONDS] [--json]",
    ]
    let options: [OptionSpec] = [
        .value("--port", "PORT", help: "Chia's port; Privue listens on PORT+1, BB on PORT+2 (default 9001)"),
        .value("--privue-webhook", "URL", help: "deliver Privue verification.updated webhooks here"),
        .value("--bb-webhook", "URL", help: "deliver BB connect_session.updated webhooks here"),
        .value(
            "--privue-return", "URL", repeatable: true,
            help: "a registered Privue return URL, https only (default https://app.example.com/kyc/done)"),
        .value(
            "--bb-return", "URL", repeatable: true,
            help: "a registered BB return URL, https or custom scheme (default https://app.example.com/bb-callback "
                + "and acmewallet://bb-callback)"),
        .value("--privue-account", "SLUG", help: "the Privue account slug in journey paths (default acme)"),
        .value("--state", "DIR", help: "keep the dev keys in DIR/secrets.json across restarts (default ./.baton)"),
        .value(
            "--env-file", "PATH",
            help: "also write the BATON_* keys as a 0600 env file (load: set -a; . PATH; set +a)"),
        .value(
            "--clock-offset", "SECONDS",
            help: "run the providers' clock this many seconds ahead of the system clock (negative: behind; "
                + "at most a day), to test clock skew"),
        .flag("--json", help: "print the origins, keys and secrets as one JSON line instead of the guide"),
    ]

    func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        let basePort = try Self.port(from: arguments)
        let json = arguments.flags.contains("--json")
        // Options are checked before the state folder is touched: a usage error creates nothing.
        let probe: SandboxConfiguration
        do {
            probe = try SandboxConfiguration.generated()
        } catch {
            console.printError("baton sandbox: \(error)")
            return 1
        }
        _ = try Self.configuration(from: arguments, base: probe)
        let configuration: SandboxConfiguration
        do {
            let state = arguments.value("--state") ?? DevelopmentSecrets.directory
            let secrets = try DevelopmentSecrets.loadOrCreate(in: state)
            if let path = arguments.value("--env-file") { try secrets.writeEnvFile(to: path) }
            configuration = try Self.configuration(
                from: arguments, base: SandboxDevelopment.sandboxConfiguration(secrets: secrets))
        } catch let error as UsageError {
            throw error
        } catch {
            console.printError(
                "baton sandbox: \((error as? CLIFailure)?.message ?? "cannot read or create the dev keys")")
            return 1
        }
        let signals = ShutdownSignal()
        let sandbox: ProviderSandbox
        do {
            sandbox = try await ProviderSandbox.start(configuration: configuration, ports: .consecutive(from: basePort))
        } catch {
            let reason = (error as? HTTPServerError)?.reason ?? "\(type(of: error))"
            console.printError(
                "baton sandbox: cannot listen (it needs ports \(basePort)-\(basePort + 2)): \(reason): is another "
                    + "process using that port? (choose another with --port)")
            return 1
        }
        console.print(json ? SandboxGuide.json(sandbox) : SandboxGuide.text(sandbox))
        _ = await signals.wait()
        await sandbox.shutdown()
        if !json { console.printError("baton sandbox: stopped") }
        return 0
    }

    static func port(from arguments: ParsedArguments) throws(UsageError) -> UInt16 {
        guard let text = arguments.value("--port") else { return 9001 }
        guard let port = UInt16(text), port > 0, port <= 65_533 else {
            throw UsageError("--port must be a number from 1 to 65533")
        }
        return port
    }

    static func configuration(
        from arguments: ParsedArguments, base: SandboxConfiguration
    ) throws(UsageError) -> SandboxConfiguration {
        var configuration = base
        do {
            let privueReturns = arguments.allValues("--privue-return")
            if !privueReturns.isEmpty { try configuration.setPrivueReturnURLs(privueReturns) }
            let bbReturns = arguments.allValues("--bb-return")
            if !bbReturns.isEmpty { try configuration.setBBReturnURLs(bbReturns) }
            if let account = arguments.value("--privue-account") { try configuration.setPrivueAccount(account) }
        } catch {
            throw UsageError(error.description)
        }
        for option in ["--privue-webhook", "--bb-webhook"] {
            guard let url = arguments.value(option) else { continue }
            guard let parts = RawURLComponents(url), ["http", "https"].contains(parts.normalizedScheme) else {
                throw UsageError("\(option) must be an http(s) URL")
            }
        }
        configuration.privueWebhookURL = arguments.value("--privue-webhook")
        configuration.bbWebhookURL = arguments.value("--bb-webhook")
        var offset = 0
        if let text = arguments.value("--clock-offset") {
            guard let value = Int(text), abs(value) <= 86_400 else {
                throw UsageError("--clock-offset must be a whole number of seconds from -86400 to 86400")
            }
            offset = value
        }
        // Shiftable, so a local harness can move it later with POST /_sandbox/clock.
        configuration.clock = .shiftable(offset: TimeInterval(offset))
        return configuration
    }
}
