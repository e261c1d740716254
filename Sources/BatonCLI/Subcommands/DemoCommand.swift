import BatonCore
import BatonHTTP
import BatonSandbox
import BatonServer
import Foundation

/// `baton demo`: the sandbox and the backend on embedded defaults (as `baton serve --sandbox` runs them), the three
/// providers' journeys walked with the headless app, a readable transcript, then the web shell until Ctrl-C.
struct DemoCommand: Subcommand {
    let name = "demo"
    let summary = "walk every journey with the headless app against the sandbox, then keep serving the web shell"
    let synopsis = ["baton demo [--once] [--port 8080]"]
    let options: [OptionSpec] = [
        .flag("--once", help: "exit after the walk: 0 if every journey ended as expected, 1 otherwise"),
        .value("--port", "PORT", help: "the backend's port; the sandbox takes PORT+1..PORT+3 (default 8080)"),
    ]

    func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        var port = 8080
        if let text = arguments.value("--port") {
            guard let value = Int(text), (1...65_531).contains(value) else {
                throw UsageError("--port must be a number from 1 to 65531")
            }
            port = value
        }
        let once = arguments.flags.contains("--once")
        let signals = ShutdownSignal()
        return await DemoRun(port: port, once: once, console: console).run(signals: signals)
    }
}

/// One `baton demo` run.
struct DemoRun: Sendable {
    let port: Int
    let once: Bool
    let console: Console

    func run(signals: ShutdownSignal) async -> Int32 {
        let transcript = DemoTranscript(console: console)
        // The sandbox's clock runs on the wall clock plus a shift the walk moves forward (an expired ticket) and back.
        let sandboxClock = SandboxClock.shiftable()
        let stack: BackendStack
        do {
            transcript.note("baton demo: starting the provider sandbox and the backend (state in ./.baton/)")
            stack = try await BackendStack.startSandbox(
                host: "127.0.0.1", port: port, database: nil, sandboxClock: sandboxClock, syncFirst: true,
                logger: Logger(sink: DiscardLogSink()), onSyncEvent: { transcript.note("baton demo: \($0)") })
        } catch let error as CLIFailure {
            console.printError("baton demo: \(error.message)")
            return 1
        } catch let error as HTTPServerError {
            console.printError("baton demo: cannot listen: \(error.reason) (try --port)")
            return 1
        } catch {
            console.printError("baton demo: cannot start (\(type(of: error)))")
            return 1
        }
        guard let providers = stack.providers, let base = URL(string: stack.base) else { return 1 }
        transcript.note(
            "baton demo: backend \(stack.base), sandbox Chia \(providers.chiaOrigin), "
                + "Privue \(providers.privueOrigin), BB \(providers.bbOrigin)")
        let signer = SignedTokenAuthenticator(configuration: stack.configuration)
        let walk = DemoWalk(
            base: base, token: { Secret(signer.token(for: $0, expiresAt: Date().addingTimeInterval(3600))) },
            chiaOrigin: providers.chiaOrigin, privueReturnURL: SandboxDevelopment.privueReturnURL,
            bbReturnURLs: SandboxDevelopment.bbReturnURLs,
            workflow: stack.configuration.privue.workflows.first ?? "merchant-onboarding", transcript: transcript,
            advanceSandboxClock: { seconds in sandboxClock.shift(by: seconds) })
        let total = walk.journeys.count
        let passed = await walk.walk()
        transcript.note("")
        transcript.note("baton demo: \(passed)/\(total) journeys ended as expected")
        let residual = sandboxClock.offsetSeconds ?? 0
        if residual != 0 {
            transcript.note("baton demo: the sandbox clock is left \(Int(residual)) s off the wall clock")
        }
        if once {
            await stack.stop(grace: .seconds(2))
            return passed == total ? 0 : 1
        }
        let secret = stack.devSignInSecret.map { " with the secret \($0.revealForUse())" } ?? ""
        transcript.note(
            "baton demo: web shell at \(stack.base)/web/ (sign in as any user\(secret)); Ctrl-C to stop")
        let signal = await signals.wait()
        transcript.note("baton demo: signal \(signal), stopping")
        await stack.stop()
        return passed == total ? 0 : 1
    }
}
