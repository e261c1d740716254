import BatonCore
import BatonCrypto
import BatonSandbox
import BatonServer
import Foundation

/// What `baton serve --sandbox` runs: the three provider simulators on PORT+1..+3 and a backend configured for them
/// from the generated development secrets.
enum SandboxDevelopment {
    static let privueReturnURL = "https://app.example.com/kyc/done"
    static let bbReturnURLs = ["https://app.example.com/bb-callback", "acmewallet://bb-callback"]
    /// The `aud` of tokens for `baton serve --sandbox` and `baton demo`.
    static let sandboxTokenAudience = "baton-sandbox"

    /// Starts the sandbox with the development secrets, its webhooks aimed at the backend on `host:port`.
    static func startSandbox(
        secrets: DevelopmentSecrets, host: String, port: Int, clock: SandboxClock = .system
    ) async throws -> ProviderSandbox {
        let backend = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        var configuration = try sandboxConfiguration(secrets: secrets, clock: clock)
        configuration.privueWebhookURL = backend + "/webhooks/privue"
        configuration.bbWebhookURL = backend + "/webhooks/bb"
        guard port + 3 <= 65_535 else { throw CLIFailure("--port must leave room for the sandbox on PORT+1..PORT+3") }
        return try await ProviderSandbox.start(
            configuration: configuration, ports: .consecutive(from: UInt16(port + 1)))
    }

    /// The simulators' configuration with the provider keys and webhook secrets of `secrets` (the same ones on
    /// every start, so a backend configured with them keeps working) and the default return URLs.
    static func sandboxConfiguration(
        secrets: DevelopmentSecrets, clock: SandboxClock = .system
    ) throws -> SandboxConfiguration {
        let env = secrets.environment
        guard let privueHooks = env["BATON_PRIVUE_WEBHOOK_SECRET"].flatMap(WebhookSecret.init),
            let bbHooks = env["BATON_BB_WEBHOOK_SECRET"].flatMap(WebhookSecret.init),
            let chia = env["BATON_CHIA_API_KEY"], let privue = env["BATON_PRIVUE_API_KEY"],
            let bb = env["BATON_BB_API_KEY"], let client = env["BATON_BB_CLIENT_ID"]
        else { throw CLIFailure("\(DevelopmentSecrets.file) is incomplete; delete it to regenerate") }
        return try SandboxConfiguration(
            chiaAPIKey: Secret(chia), privueAPIKey: Secret(privue), bbAPIKey: Secret(bb), bbClientID: Secret(client),
            privueWebhookSecret: privueHooks, bbWebhookSecret: bbHooks, privueReturnURLs: [privueReturnURL],
            bbReturnURLs: bbReturnURLs, clock: clock)
    }

    /// The backend configuration for a running sandbox, a typed value checked as a configuration file is.
    static func configuration(
        sandbox: ProviderSandbox, secrets: DevelopmentSecrets, host: String, port: Int, database: String
    ) throws(ConfigurationErrors) -> BackendConfiguration {
        let settings = SandboxBackendSettings(
            host: host, port: port, publicOrigin: "http://127.0.0.1:\(port)", database: database,
            // One audience whatever the port, so `baton token` (which does not know the port) mints for it.
            tokenAudience: sandboxTokenAudience, chiaOrigin: sandbox.chiaOrigin, privueOrigin: sandbox.privueOrigin,
            privueReturnURL: privueReturnURL, privueWorkflows: ["merchant-onboarding"], bbOrigin: sandbox.bbOrigin,
            bbHTTPSReturnURL: bbReturnURLs[0], bbCustomSchemeReturnURL: bbReturnURLs[1],
            appleAppIDs: ["ABCDE12345.com.example.wallet"],
            returnLanding: BackendConfiguration.ReturnLanding(
                openHost: "open.app.example.com",
                storeFallbackText: "No app yet? Get Acme Wallet from the App Store or Google Play."))
        return try BackendConfiguration.sandbox(settings, environment: secrets.environment)
    }
}
