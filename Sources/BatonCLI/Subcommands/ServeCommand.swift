import BatonCore
import BatonHTTP
import BatonSandbox
import BatonServer
import Foundation

/// `baton serve`: the partner backend, from a configuration file, or with `--sandbox` against the in-process
/// provider simulators with generated development secrets and no configuration at all.
struct ServeCommand: Subcommand {
    let name = "serve"
    let summary = "run the partner backend (--sandbox: with the provider simulators, no configuration needed)"
    let synopsis = [
        "baton serve [--config FILE] [--host 127.0.0.1] [--port 8080] [--database sqlite:PATH|postgres://…]",
        "baton serve --sandbox [--host 127.0.0.1] [--port 8080] [--database …]",
    ]
    let options: [OptionSpec] = [
        .value(
            "--config", "FILE", help: "the JSON configuration (default ./baton.json); secrets come from BATON_* env"),
        .flag("--sandbox", help: "run Chia, Privue and BB simulators on PORT+1..+3; state in ./.baton/"),
        .value("--host", "HOST", help: "address to bind (overrides server.host)"),
        .value("--port", "PORT", help: "port to bind (overrides server.port; --sandbox default 8080)"),
        .value("--database", "URL", help: "sqlite:PATH or postgres://… (overrides database)"),
        .value(
            "--rate-limit", "BURST/PERMINUTE|off",
            help: "the per-user limit on provider-backed routes (overrides rateLimit; default 60/60)"),
    ]

    func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        var port: Int?
        if let text = arguments.value("--port") {
            guard let value = Int(text), (1...65_535).contains(value) else {
                throw UsageError("--port must be a number from 1 to 65535")
            }
            port = value
        }
        let sandbox = arguments.flags.contains("--sandbox")
        if sandbox && arguments.value("--config") != nil { throw UsageError("--sandbox takes no --config") }
        var rateLimit: BackendConfiguration.RateLimit?
        if let text = arguments.value("--rate-limit") {
            rateLimit = try Self.rateLimit(text)
        }
        let request = ServeRequest(
            sandbox: sandbox, config: arguments.value("--config") ?? "baton.json", host: arguments.value("--host"),
            port: port, database: arguments.value("--database"), rateLimit: rateLimit)
        // Signals are caught before anything listens, so a SIGTERM during startup still drains.
        let signals = ShutdownSignal()
        return await request.serve(console: console, signals: signals)
    }
}

extension ServeCommand {
    /// `--rate-limit BURST/PERMINUTE` (each 1–100000; both buckets, and the pending connect-session cap, BURST) or
    /// `off`.
    static func rateLimit(_ text: String) throws(UsageError) -> BackendConfiguration.RateLimit {
        if text == "off" { return BackendConfiguration.RateLimit(enabled: false) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let burst = Int(parts[0]), let perMinute = Int(parts[1]),
            (1...100_000).contains(burst), (1...100_000).contains(perMinute)
        else { throw UsageError("--rate-limit must be BURST/PERMINUTE (each 1 to 100000) or off") }
        return BackendConfiguration.RateLimit(
            enabled: true, burst: burst, perMinute: perMinute, createBurst: burst, createPerMinute: perMinute,
            maxPendingConnectSessions: burst)
    }
}

/// One `baton serve` run, from parsed options to shutdown.
struct ServeRequest: Sendable {
    let sandbox: Bool
    let config: String
    let host: String?
    let port: Int?
    let database: String?
    var rateLimit: BackendConfiguration.RateLimit? = nil

    func serve(console: Console, signals: ShutdownSignal) async -> Int32 {
        let progress: @Sendable (CatalogSyncEvent) -> Void = { console.print("baton serve: \($0)") }
        do {
            let stack: BackendStack
            if sandbox {
                stack = try await BackendStack.startSandbox(
                    host: host ?? "127.0.0.1", port: port ?? 8080, database: database, rateLimit: rateLimit,
                    onSyncEvent: progress)
            } else {
                guard let file = FileManager.default.contents(atPath: config) else {
                    throw CLIFailure("cannot read the configuration file '\(config)' (see docs/configuration.md)")
                }
                var configuration = try BackendConfiguration.load(
                    json: file, environment: ProcessInfo.processInfo.environment)
                if let host { configuration.server.host = host }
                if let port { configuration.server.port = port }
                if let database { configuration.database = database }
                if let rateLimit { configuration.rateLimit = rateLimit }
                // The CLI cannot know the partner's account system; see NoEvidenceServiceStateProvider. Against a
                // separately running `baton sandbox`, development.sandboxEvidence uses its fixture users instead.
                let evidence: any ServiceStateProvider =
                    configuration.usesSandboxEvidence
                    ? FixtureServiceStateProvider.sandbox : NoEvidenceServiceStateProvider()
                stack = try await BackendStack.start(
                    configuration: configuration, providers: nil, evidence: evidence, onSyncEvent: progress)
                if !configuration.usesSandboxEvidence {
                    console.print(
                        "baton serve: warning: no service-state provider is plugged in, so every catalog item is "
                            + "neutral_only (no sharing); plug yours in through BatonBackend.build(evidence:) in your own "
                            + "executable (docs/CONTRACTS.md §3)")
                }
            }
            let base = stack.base
            console.print("baton serve: backend      \(base)  (store \(describe(stack.configuration.database)))")
            console.print("baton serve: admin        \(stack.running.admin.url(""))  (/metrics, detailed /readyz)")
            if let providers = stack.providers {
                console.print("baton serve: Chia sandbox   \(providers.chiaOrigin)")
                console.print("baton serve: Privue sandbox \(providers.privueOrigin)")
                console.print("baton serve: BB sandbox     \(providers.bbOrigin)")
                console.print("baton serve: secrets in \(DevelopmentSecrets.file); tokens: baton token --user ID")
            }
            if stack.providers != nil || stack.configuration.servesWebShell {
                console.print("baton serve: web shell    \(base)/web/")
            }
            if let secret = stack.devSignInSecret {
                // Printed on purpose: a development secret for this run only, asked by the web shell's sign-in.
                console.print(
                    "baton serve: dev sign-in secret \(secret.revealForUse())  (this run only; the web shell asks for "
                        + "it; also in \(BackendStack.devSignInSecretFile))")
            }
            console.print("baton serve: ready (Ctrl-C or SIGTERM to stop)")
            let signal = await signals.wait()
            console.print("baton serve: signal \(signal), draining")
            await stack.stop()
            console.print("baton serve: stopped")
            return 0
        } catch let errors as ConfigurationErrors {
            console.printError("baton serve: \(errors.description)")
        } catch let error as ConfigurationError {
            console.printError("baton serve: \(error.description)")
        } catch let error as CLIFailure {
            console.printError("baton serve: \(error.message)")
        } catch let error as StoreError {
            console.printError("baton serve: cannot open the database: \(error.description)")
        } catch let error as HTTPServerError {
            let others = sandbox ? "; --sandbox also needs PORT+1..PORT+3" : ""
            console.printError(
                "baton serve: cannot listen: \(error.reason): is another process using that port? "
                    + "(choose another with --port\(others))")
        } catch {
            console.printError("baton serve: cannot start (\(type(of: error)))")
        }
        return 1
    }

    private func describe(_ database: String) -> String {
        (try? StoreURL(database).description) ?? "?"
    }
}
