import BatonCore
import BatonCrypto
import BatonHTTP
import Foundation

/// One function per section of the configuration file, each reading its fields in order, so ``BackendConfiguration``'s
/// loader is the list of sections.
extension ConfigurationReader {
    /// `development`: loopback http and the sandbox's fixture users, read before everything else (an origin's rule
    /// depends on it).
    mutating func development(_ root: [String: JSONValue]) -> (allowsLoopbackHTTP: Bool, usesSandboxEvidence: Bool) {
        let object = section(
            root, "development", known: ["allowLoopbackHTTP", "sandboxEvidence"],
            required: false)
        let allowsLoopbackHTTP = bool(object, "allowLoopbackHTTP", default: false)
        let usesSandboxEvidence = bool(object, "sandboxEvidence", default: false)
        if usesSandboxEvidence && !allowsLoopbackHTTP {
            fail(
                "development.sandboxEvidence",
                "fixture users are for the local sandbox only: set development.allowLoopbackHTTP too, never in production"
            )
        }
        return (allowsLoopbackHTTP, usesSandboxEvidence)
    }

    /// `server`: the public listener, its limits and the admin listener.
    mutating func server(_ root: [String: JSONValue]) -> BackendConfiguration.Server {
        let object = section(
            root, "server",
            known: [
                "host", "port", "threads", "publicOrigin", "maxConnectionsPerAddress", "maxConnections", "adminHost",
                "adminPort",
            ])
        let server = BackendConfiguration.Server(
            host: string(object, "host", default: "127.0.0.1"),
            port: integer(object, "port", default: 8080, range: 1...65_535),
            threads: integer(
                object, "threads", default: ProcessInfo.processInfo.activeProcessorCount,
                range: 1...256),
            publicOrigin: origin(object, "publicOrigin"),
            maxConnectionsPerAddress: integer(
                object, "maxConnectionsPerAddress",
                default: HTTPServerLimits().maxConnectionsPerAddress, range: 0...1_000_000),
            maxConnections: integer(
                object, "maxConnections", default: HTTPServerLimits().maxConnections,
                range: 1...1_000_000),
            adminHost: string(object, "adminHost", default: "127.0.0.1"),
            adminPort: integer(object, "adminPort", default: 9464, range: 0...65_535))
        if server.adminPort != 0 && server.adminPort == server.port {
            fail("server.adminPort", "must differ from server.port (the admin listener is a second port)")
        }
        return server
    }

    /// `database`: `sqlite:PATH` or a PostgreSQL URL.
    mutating func database(_ root: [String: JSONValue]) -> String {
        let database = string(root, "database", path: "database", default: "sqlite:.baton/baton.sqlite")
        if !database.hasPrefix("sqlite:") && !database.hasPrefix("postgres://") && !database.hasPrefix("postgresql://")
        {
            fail("database", "must be sqlite:PATH or postgres://…")
        }
        return database
    }

    /// `chia` and its API key: the catalog's origins, sync and decision policy, and the generic return.
    mutating func chia(_ root: [String: JSONValue], _ environment: [String: String]) -> BackendConfiguration.Chia {
        let object = section(
            root, "chia",
            known: [
                "apiOrigin", "assetOrigin", "genericReturnHost", "syncIntervalSeconds", "evidenceTTLSeconds",
                "clockSkewSeconds", "supportedSchemaVersions", "maxImageBytes", "genericReturnPath", "journeyHosts",
            ])
        var chia = BackendConfiguration.Chia(
            apiOrigin: origin(object, "apiOrigin"),
            assetOrigin: origin(object, "assetOrigin"),
            apiKey: secret(environment, SecretVariable.chiaAPIKey.rawValue, minimumLength: 16),
            genericReturnHost: object["genericReturnHost"] == nil
                ? nil : hostName(object, "genericReturnHost"),
            genericReturnPath: object["genericReturnPath"] == nil
                ? nil : string(object, "genericReturnPath"),
            syncInterval: TimeInterval(
                integer(object, "syncIntervalSeconds", default: 300, range: 5...86_400)),
            decisionPolicy: CatalogDecisionPolicy(
                evidenceTTL: TimeInterval(
                    integer(
                        object, "evidenceTTLSeconds", default: 300,
                        range: 1...86_400)),
                clockSkewTolerance: TimeInterval(
                    integer(object, "clockSkewSeconds", default: 30, range: 0...3_600)),
                supportedSchemaVersions: Set(
                    integers(object, "supportedSchemaVersions", default: [1]))),
            maxImageBytes: integer(object, "maxImageBytes", default: 2 << 20, range: 1_024...(64 << 20)))
        chia.journeyHosts = journeyHosts(object, defaultOrigin: chia.apiOrigin, documented: nil)
        chia.journeyHostsConfigured = object["journeyHosts"] != nil
        return chia
    }

    /// `privue` and its secrets; `nil` (with the failure recorded) when its return URL is missing or invalid.
    mutating func privue(_ root: [String: JSONValue], _ environment: [String: String]) -> BackendConfiguration.Privue? {
        let object = section(
            root, "privue",
            known: ["apiOrigin", "returnURL", "workflows", "journeyHosts", "previousWebhookSecretUntil"])
        // Read in the file's order, so the errors come in it.
        let apiOrigin = origin(object, "apiOrigin")
        let key = secret(environment, SecretVariable.privueAPIKey.rawValue, minimumLength: 16)
        let hooks = webhookSecret(environment, SecretVariable.privueWebhookSecret.rawValue)
        let returnTo = returnURL(object, "returnURL", httpsOnly: true)
        let workflows = strings(object, "workflows")
        let hosts = journeyHosts(
            object, defaultOrigin: apiOrigin,
            documented: BackendConfiguration.Privue.documentedJourneyHosts)
        let previous = previousWebhookSecret(environment, "BATON_PRIVUE_WEBHOOK_SECRET_PREVIOUS", object)
        guard let returnTo else { return nil }
        return BackendConfiguration.Privue(
            apiOrigin: apiOrigin, apiKey: key, webhookSecret: hooks, previousWebhookSecret: previous?.secret,
            previousWebhookSecretUntil: previous?.until, returnURL: returnTo, workflows: workflows,
            journeyHosts: hosts)
    }

    /// `bb` and its secrets; `nil` (with the failure recorded) when its https return URL is missing or invalid.
    mutating func bb(_ root: [String: JSONValue], _ environment: [String: String]) -> BackendConfiguration.BB? {
        let object = section(
            root, "bb", known: ["apiOrigin", "returnURLs", "journeyHosts", "previousWebhookSecretUntil"])
        let previous = previousWebhookSecret(environment, "BATON_BB_WEBHOOK_SECRET_PREVIOUS", object)
        let returns = section(object, "returnURLs", known: ["https", "customScheme"])
        let apiOrigin = origin(object, "apiOrigin")
        let key = secret(environment, SecretVariable.bbAPIKey.rawValue, minimumLength: 16)
        let clientID = secret(environment, SecretVariable.bbClientID.rawValue, minimumLength: 1).revealForUse()
        let hooks = webhookSecret(environment, SecretVariable.bbWebhookSecret.rawValue)
        let httpsReturnURL = returnURL(returns, "https", httpsOnly: true)
        let hosts = journeyHosts(object, defaultOrigin: apiOrigin, documented: nil)
        let customReturnURL =
            returns["customScheme"] == nil
            ? nil : returnURL(returns, "customScheme", httpsOnly: false)
        if let custom = customReturnURL, custom.isHTTPS || custom.string.lowercased().hasPrefix("http:") {
            fail("bb.returnURLs.customScheme", "must use the app's own scheme, such as acmewallet://bb-callback")
        }
        guard let httpsReturnURL else { return nil }
        var bb = BackendConfiguration.BB(
            apiOrigin: apiOrigin, apiKey: key, clientID: clientID, webhookSecret: hooks,
            previousWebhookSecret: previous?.secret, previousWebhookSecretUntil: previous?.until,
            httpsReturnURL: httpsReturnURL, customSchemeReturnURL: customReturnURL, journeyHosts: hosts)
        bb.journeyHostsConfigured = object["journeyHosts"] != nil
        return bb
    }

    /// `apps`: the Apple app ids and the Android package and certificates the well-known files list.
    mutating func apps(_ root: [String: JSONValue]) -> BackendConfiguration.Apps {
        let object = section(root, "apps", known: ["apple", "android"], required: false)
        let apple = section(object, "apple", known: ["appIDs"], required: false)
        let android = section(
            object, "android", known: ["packageName", "sha256CertFingerprints"],
            required: false)
        let apps = BackendConfiguration.Apps(
            appleAppIDs: strings(apple, "appIDs", required: false),
            androidPackageName: android["packageName"] == nil
                ? nil : string(android, "packageName"),
            androidCertificateFingerprints: strings(android, "sha256CertFingerprints", required: false))
        checkAppIDs(apps)
        return apps
    }

    /// `rateLimit`: the per-user buckets and the cap on pending connect sessions.
    mutating func rateLimit(_ root: [String: JSONValue]) -> BackendConfiguration.RateLimit {
        let object = section(
            root, "rateLimit",
            known: ["enabled", "burst", "perMinute", "createBurst", "createPerMinute", "maxPendingConnectSessions"],
            required: false)
        return BackendConfiguration.RateLimit(
            enabled: bool(object, "enabled", default: true),
            burst: integer(object, "burst", default: 60, range: 1...100_000),
            perMinute: integer(object, "perMinute", default: 60, range: 1...100_000),
            createBurst: integer(object, "createBurst", default: 10, range: 1...100_000),
            createPerMinute: integer(object, "createPerMinute", default: 2, range: 1...100_000),
            maxPendingConnectSessions: integer(
                object, "maxPendingConnectSessions", default: 5,
                range: 0...100_000))
    }

    /// `tokens` and the keys behind them: the signing key (and retired ones), the idempotency secret, lifetimes.
    mutating func tokens(
        _ root: [String: JSONValue], _ environment: [String: String], publicOrigin: String
    ) -> BackendConfiguration.TokenSettings {
        let object = section(
            root, "tokens",
            known: ["ttlSeconds", "audience", "clockSkewSeconds", "maxLifetimeSeconds"],
            required: false)
        let signingKey = secret(environment, SecretVariable.tokenSigningKey.rawValue, minimumLength: 32)
        let idempotencyVariable = OptionalSecretVariable.idempotencySecret.rawValue
        let idempotencySecret =
            (environment[idempotencyVariable] ?? "").isEmpty ? nil : key256(environment, idempotencyVariable)
        let ttl = integer(object, "ttlSeconds", default: 3_600, range: 60...2_592_000)
        let audience = string(object, "audience", default: publicOrigin)
        let previousKeys = previousTokenKeys(environment)
        let clockSkew = integer(object, "clockSkewSeconds", default: 60, range: 0...3_600)
        let maxLifetime = integer(
            object, "maxLifetimeSeconds", default: max(86_400, ttl),
            range: 60...31_536_000)
        if maxLifetime < ttl {
            fail(
                "tokens.maxLifetimeSeconds",
                "must be at least tokens.ttlSeconds (tokens baton token mints would be refused)")
        }
        return BackendConfiguration.TokenSettings(
            signingKey: signingKey, previousSigningKeys: previousKeys, idempotencySecret: idempotencySecret,
            ttl: TimeInterval(ttl), audience: audience, clockSkew: TimeInterval(clockSkew),
            maxLifetime: TimeInterval(maxLifetime))
    }

    /// `providers`: how long one provider call may take.
    mutating func providerTimeout(_ root: [String: JSONValue]) -> TimeInterval {
        let object = section(root, "providers", known: ["timeoutSeconds"], required: false)
        return TimeInterval(
            integer(object, "timeoutSeconds", default: 10, range: 1...120))
    }

    /// `webShell`: whether `/web/` serves the reference shell.
    mutating func servesWebShell(_ root: [String: JSONValue]) -> Bool {
        let object = section(root, "webShell", known: ["enabled"], required: false)
        return bool(object, "enabled", default: false)
    }
}

extension BackendConfiguration {
    /// The `tokens` section as read, before it is spread over the configuration's token fields.
    struct TokenSettings {
        let signingKey: Secret
        let previousSigningKeys: [RetiredTokenKey]
        /// `nil` when `BATON_IDEMPOTENCY_SECRET` is not set (the secret is then derived from the signing key).
        let idempotencySecret: Secret?
        let ttl: TimeInterval
        let audience: String
        let clockSkew: TimeInterval
        let maxLifetime: TimeInterval
    }
}
