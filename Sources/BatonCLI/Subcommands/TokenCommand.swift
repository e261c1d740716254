import BatonCore
import BatonServer
import Foundation

/// `baton token`: prints a bearer token the backend accepts, signed with the configured key (or, without
/// `--config`, the development key `baton serve --sandbox` generated in `./.baton/`).
struct TokenCommand: Subcommand {
    let name = "token"
    let summary = "print a bearer token for a user (dev; signed with the --config or ./.baton/ key)"
    let synopsis = ["baton token --user ID [--ttl SECONDS] [--config FILE]"]
    let options: [OptionSpec] = [
        .value("--user", "ID", help: "the partner user id the token is for"),
        .value("--ttl", "SECONDS", help: "validity (default: tokens.ttlSeconds, or 3600)"),
        .value("--config", "FILE", help: "sign with this configuration's BATON_TOKEN_SIGNING_KEY"),
    ]

    func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'")
        }
        guard let user = arguments.value("--user"), !user.isEmpty else { throw UsageError("--user ID is required") }
        var ttl: TimeInterval?
        if let text = arguments.value("--ttl") {
            guard let seconds = Int(text), (1...2_592_000).contains(seconds) else {
                throw UsageError("--ttl must be a number of seconds from 1 to 2592000")
            }
            ttl = TimeInterval(seconds)
        }
        let signer: SignedTokenAuthenticator
        var defaultTTL: TimeInterval = 3600
        if let path = arguments.value("--config") {
            guard let file = FileManager.default.contents(atPath: path) else {
                console.printError("baton token: cannot read the configuration file '\(path)'")
                return 1
            }
            do {
                let configuration = try BackendConfiguration.load(
                    json: file, environment: ProcessInfo.processInfo.environment)
                signer = SignedTokenAuthenticator(configuration: configuration)
                defaultTTL = configuration.tokenTTL
            } catch {
                console.printError("baton token: \(error.description)")
                return 1
            }
        } else {
            guard let secrets = try? DevelopmentSecrets.load(),
                let signing = secrets.environment["BATON_TOKEN_SIGNING_KEY"]
            else {
                console.printError(
                    "baton token: no \(DevelopmentSecrets.file) here; run 'baton serve --sandbox' in this folder first, "
                        + "or pass --config FILE")
                return 1
            }
            signer = SignedTokenAuthenticator(
                key: Secret(signing), audience: SandboxDevelopment.sandboxTokenAudience)
        }
        let expiry = Date().addingTimeInterval(ttl ?? defaultTTL)
        console.print(signer.token(for: user, expiresAt: expiry))
        return 0
    }
}
