import BatonCore
import BatonCrypto
import BatonHTTP
import Foundation

extension BackendConfiguration {
    /// Reads a configuration from the JSON `file` contents and the secrets in `environment`.
    ///
    /// - Throws: ``ConfigurationErrors`` listing every missing or malformed field, by path or variable name; a file
    ///   that is not JSON is one error naming the line and column where it stops being JSON.
    public static func load(json file: Data, environment: [String: String]) throws(ConfigurationErrors) -> Self {
        let document: JSONValue
        do {
            document = try JSONValue.parse(Array(file))
        } catch {
            throw ConfigurationErrors([
                ConfigurationError(
                    field: "(file)",
                    problem: "is not valid JSON at line \(error.line), column \(error.column): \(error.problem)")
            ])
        }
        guard let root = document.members else {
            throw ConfigurationErrors([ConfigurationError(field: "(file)", problem: "must be a JSON object")])
        }
        return try load(root, environment: environment)
    }

    static func load(_ root: [String: JSONValue], environment: [String: String]) throws(ConfigurationErrors) -> Self {
        var development = ConfigurationReader(allowsLoopbackHTTP: false)
        let developmentObject = development.object(
            root, "development", path: "development", known: ["allowLoopbackHTTP", "sandboxEvidence"],
            required: false)
        let allowsLoopbackHTTP = development.bool(
            developmentObject, "allowLoopbackHTTP", path: "development.allowLoopbackHTTP", default: false)
        let usesSandboxEvidence = development.bool(
            developmentObject, "sandboxEvidence", path: "development.sandboxEvidence", default: false)
        if usesSandboxEvidence && !allowsLoopbackHTTP {
            development.fail(
                "development.sandboxEvidence",
                "fixture users are for the local sandbox only: set development.allowLoopbackHTTP too, never in production"
            )
        }

        var read = ConfigurationReader(allowsLoopbackHTTP: allowsLoopbackHTTP)
        read.rejectUnknownKeys(
            root, path: "",
            known: [
                "server", "database", "development", "tokens", "providers", "chia", "privue", "bb", "apps",
                "returnLanding", "rateLimit", "webShell", "retention",
            ])

        let serverObject = read.object(
            root, "server", path: "server",
            known: [
                "host", "port", "threads", "publicOrigin", "maxConnectionsPerAddress", "maxConnections", "adminHost",
                "adminPort",
            ])
        let server = Server(
            host: read.string(serverObject, "host", path: "server.host", default: "127.0.0.1"),
            port: read.integer(serverObject, "port", path: "server.port", default: 8080, range: 1...65_535),
            threads: read.integer(
                serverObject, "threads", path: "server.threads",
                default: ProcessInfo.processInfo.activeProcessorCount, range: 1...256),
            publicOrigin: read.origin(serverObject, "publicOrigin", path: "server.publicOrigin"),
            maxConnectionsPerAddress: read.integer(
                serverObject, "maxConnectionsPerAddress", path: "server.maxConnectionsPerAddress",
                default: HTTPServerLimits().maxConnectionsPerAddress, range: 0...1_000_000),
            maxConnections: read.integer(
                serverObject, "maxConnections", path: "server.maxConnections",
                default: HTTPServerLimits().maxConnections, range: 1...1_000_000),
            adminHost: read.string(serverObject, "adminHost", path: "server.adminHost", default: "127.0.0.1"),
            adminPort: read.integer(
                serverObject, "adminPort", path: "server.adminPort", default: 9464, range: 0...65_535))
        if server.adminPort != 0 && server.adminPort == server.port {
            read.fail("server.adminPort", "must differ from server.port (the admin listener is a second port)")
        }

        let database = read.string(root, "database", path: "database", default: "sqlite:.baton/baton.sqlite")
        if !database.hasPrefix("sqlite:") && !database.hasPrefix("postgres://") && !database.hasPrefix("postgresql://")
        {
            read.fail("database", "must be sqlite:PATH or postgres://…")
        }

        let tokens = read.object(
            root, "tokens", path: "tokens",
            known: ["ttlSeconds", "audience", "clockSkewSeconds", "maxLifetimeSeconds"],
            required: false)
        let providers = read.object(root, "providers", path: "providers", known: ["timeoutSeconds"], required: false)

        let chiaObject = read.object(
            root, "chia", path: "chia",
            known: [
                "apiOrigin", "assetOrigin", "genericReturnHost", "syncIntervalSeconds", "evidenceTTLSeconds",
                "clockSkewSeconds", "supportedSchemaVersions", "maxImageBytes", "genericReturnPath", "journeyHosts",
            ])
        let chia = Chia(
            apiOrigin: read.origin(chiaObject, "apiOrigin", path: "chia.apiOrigin"),
            assetOrigin: read.origin(chiaObject, "assetOrigin", path: "chia.assetOrigin"),
            apiKey: read.secret(environment, SecretVariable.chiaAPIKey.rawValue, minimumLength: 16),
            genericReturnHost: chiaObject["genericReturnHost"] == nil
                ? nil : read.hostName(chiaObject, "genericReturnHost", path: "chia.genericReturnHost"),
            genericReturnPath: chiaObject["genericReturnPath"] == nil
                ? nil : read.string(chiaObject, "genericReturnPath", path: "chia.genericReturnPath"),
            syncInterval: TimeInterval(
                read.integer(
                    chiaObject, "syncIntervalSeconds", path: "chia.syncIntervalSeconds", default: 300,
                    range: 5...86_400)),
            decisionPolicy: CatalogDecisionPolicy(
                evidenceTTL: TimeInterval(
                    read.integer(
                        chiaObject, "evidenceTTLSeconds", path: "chia.evidenceTTLSeconds", default: 300,
                        range: 1...86_400)),
                clockSkewTolerance: TimeInterval(
                    read.integer(
                        chiaObject, "clockSkewSeconds", path: "chia.clockSkewSeconds", default: 30, range: 0...3_600)),
                supportedSchemaVersions: Set(
                    read.integers(
                        chiaObject, "supportedSchemaVersions", path: "chia.supportedSchemaVersions", default: [1]))),
            maxImageBytes: read.integer(
                chiaObject, "maxImageBytes", path: "chia.maxImageBytes", default: 2 << 20, range: 1_024...(64 << 20)))

        var chiaPinned = chia
        chiaPinned.journeyHosts = read.journeyHosts(
            chiaObject, path: "chia.journeyHosts", defaultOrigin: chia.apiOrigin, documented: nil)
        chiaPinned.journeyHostsConfigured = chiaObject["journeyHosts"] != nil
        let privueObject = read.object(
            root, "privue", path: "privue",
            known: ["apiOrigin", "returnURL", "workflows", "journeyHosts", "previousWebhookSecretUntil"])
        // Read in the file's order, so the errors come in it; the return URLs are `nil` (with an error) when invalid.
        let privueOrigin = read.origin(privueObject, "apiOrigin", path: "privue.apiOrigin")
        let privueKey = read.secret(environment, SecretVariable.privueAPIKey.rawValue, minimumLength: 16)
        let privueHooks = read.webhookSecret(environment, SecretVariable.privueWebhookSecret.rawValue)
        let privueReturnURL = read.returnURL(privueObject, "returnURL", path: "privue.returnURL", httpsOnly: true)
        let workflows = read.strings(privueObject, "workflows", path: "privue.workflows")

        let privueHosts = read.journeyHosts(
            privueObject, path: "privue.journeyHosts", defaultOrigin: privueOrigin,
            documented: BackendConfiguration.Privue.documentedJourneyHosts)
        let privuePrevious = read.previousWebhookSecret(
            environment, "BATON_PRIVUE_WEBHOOK_SECRET_PREVIOUS", privueObject, path: "privue.previousWebhookSecretUntil"
        )
        let bbObject = read.object(
            root, "bb", path: "bb", known: ["apiOrigin", "returnURLs", "journeyHosts", "previousWebhookSecretUntil"])
        let bbPrevious = read.previousWebhookSecret(
            environment, "BATON_BB_WEBHOOK_SECRET_PREVIOUS", bbObject, path: "bb.previousWebhookSecretUntil")
        let bbReturns = read.object(bbObject, "returnURLs", path: "bb.returnURLs", known: ["https", "customScheme"])
        let bbOrigin = read.origin(bbObject, "apiOrigin", path: "bb.apiOrigin")
        let bbKey = read.secret(environment, SecretVariable.bbAPIKey.rawValue, minimumLength: 16)
        let bbClientID = read.secret(environment, SecretVariable.bbClientID.rawValue, minimumLength: 1).revealForUse()
        let bbHooks = read.webhookSecret(environment, SecretVariable.bbWebhookSecret.rawValue)
        let bbHTTPSReturnURL = read.returnURL(bbReturns, "https", path: "bb.returnURLs.https", httpsOnly: true)
        let bbHosts = read.journeyHosts(bbObject, path: "bb.journeyHosts", defaultOrigin: bbOrigin, documented: nil)
        let bbCustomReturnURL =
            bbReturns["customScheme"] == nil
            ? nil : read.returnURL(bbReturns, "customScheme", path: "bb.returnURLs.customScheme", httpsOnly: false)
        if let custom = bbCustomReturnURL, custom.isHTTPS || custom.string.lowercased().hasPrefix("http:") {
            read.fail("bb.returnURLs.customScheme", "must use the app's own scheme, such as acmewallet://bb-callback")
        }

        let appsObject = read.object(root, "apps", path: "apps", known: ["apple", "android"], required: false)
        let apple = read.object(appsObject, "apple", path: "apps.apple", known: ["appIDs"], required: false)
        let android = read.object(
            appsObject, "android", path: "apps.android", known: ["packageName", "sha256CertFingerprints"],
            required: false)
        let apps = Apps(
            appleAppIDs: read.strings(apple, "appIDs", path: "apps.apple.appIDs", required: false),
            androidPackageName: android["packageName"] == nil
                ? nil : read.string(android, "packageName", path: "apps.android.packageName"),
            androidCertificateFingerprints: read.strings(
                android, "sha256CertFingerprints", path: "apps.android.sha256CertFingerprints", required: false))
        read.checkAppIDs(apps)

        let limits = read.object(
            root, "rateLimit", path: "rateLimit",
            known: ["enabled", "burst", "perMinute", "createBurst", "createPerMinute", "maxPendingConnectSessions"],
            required: false)
        let rateLimit = RateLimit(
            enabled: read.bool(limits, "enabled", path: "rateLimit.enabled", default: true),
            burst: read.integer(limits, "burst", path: "rateLimit.burst", default: 60, range: 1...100_000),
            perMinute: read.integer(limits, "perMinute", path: "rateLimit.perMinute", default: 60, range: 1...100_000),
            createBurst: read.integer(
                limits, "createBurst", path: "rateLimit.createBurst", default: 10, range: 1...100_000),
            createPerMinute: read.integer(
                limits, "createPerMinute", path: "rateLimit.createPerMinute", default: 2, range: 1...100_000),
            maxPendingConnectSessions: read.integer(
                limits, "maxPendingConnectSessions", path: "rateLimit.maxPendingConnectSessions", default: 5,
                range: 0...100_000))
        let tokenSigningKey = read.secret(environment, SecretVariable.tokenSigningKey.rawValue, minimumLength: 32)
        let idempotencyVariable = OptionalSecretVariable.idempotencySecret.rawValue
        let configuredIdempotencySecret =
            (environment[idempotencyVariable] ?? "").isEmpty ? nil : read.key256(environment, idempotencyVariable)

        let tokenTTL = TimeInterval(
            read.integer(tokens, "ttlSeconds", path: "tokens.ttlSeconds", default: 3_600, range: 60...2_592_000))
        let sealingKey = read.key256(environment, SecretVariable.sealingKey.rawValue)
        let previousSealingKeys = read.keys256(environment, OptionalSecretVariable.previousSealingKeys.rawValue)
        let providerTimeout = TimeInterval(
            read.integer(providers, "timeoutSeconds", path: "providers.timeoutSeconds", default: 10, range: 1...120))
        let returnLanding = read.returnLanding(root)
        read.checkLanding(
            returnURLs: [("bb.returnURLs.https", bbHTTPSReturnURL), ("privue.returnURL", privueReturnURL)], chia: chia,
            landing: returnLanding)
        let tokenAudience = read.string(tokens, "audience", path: "tokens.audience", default: server.publicOrigin)
        let previousTokenSigningKeys = read.previousTokenKeys(environment)
        let tokenClockSkew = read.integer(
            tokens, "clockSkewSeconds", path: "tokens.clockSkewSeconds", default: 60, range: 0...3_600)
        let tokenMaxLifetime = read.integer(
            tokens, "maxLifetimeSeconds", path: "tokens.maxLifetimeSeconds", default: max(86_400, Int(tokenTTL)),
            range: 60...31_536_000)
        if tokenMaxLifetime < Int(tokenTTL) {
            read.fail(
                "tokens.maxLifetimeSeconds",
                "must be at least tokens.ttlSeconds (tokens baton token mints would be refused)")
        }
        let webShell = read.object(root, "webShell", path: "webShell", known: ["enabled"], required: false)
        let servesWebShell = read.bool(webShell, "enabled", path: "webShell.enabled", default: false)
        let retention = read.retention(root, syncInterval: chia.syncInterval)

        let errors = development.errors + read.errors
        // An invalid return URL is among the errors, so both are present whenever there are none.
        guard errors.isEmpty, let privueReturnURL, let bbHTTPSReturnURL else { throw ConfigurationErrors(errors) }
        let privue = Privue(
            apiOrigin: privueOrigin, apiKey: privueKey, webhookSecret: privueHooks,
            previousWebhookSecret: privuePrevious?.secret, previousWebhookSecretUntil: privuePrevious?.until,
            returnURL: privueReturnURL, workflows: workflows, journeyHosts: privueHosts)
        let bb = BB(
            apiOrigin: bbOrigin, apiKey: bbKey, clientID: bbClientID, webhookSecret: bbHooks,
            previousWebhookSecret: bbPrevious?.secret, previousWebhookSecretUntil: bbPrevious?.until,
            httpsReturnURL: bbHTTPSReturnURL, customSchemeReturnURL: bbCustomReturnURL, journeyHosts: bbHosts)
        var bbPinned = bb
        bbPinned.journeyHostsConfigured = bbObject["journeyHosts"] != nil
        var configuration = BackendConfiguration(
            server: server,
            database: database,
            allowsLoopbackHTTP: allowsLoopbackHTTP,
            usesSandboxEvidence: usesSandboxEvidence,
            tokenSigningKey: tokenSigningKey,
            tokenTTL: tokenTTL,
            sealingKey: sealingKey,
            previousSealingKeys: previousSealingKeys,
            idempotencySecret: configuredIdempotencySecret
                ?? ProviderIdempotencyKeys.derivedSecret(fromTokenSigningKey: tokenSigningKey),
            idempotencySecretIsConfigured: configuredIdempotencySecret != nil,
            rateLimit: rateLimit,
            providerTimeout: providerTimeout,
            chia: chiaPinned, privue: privue, bb: bbPinned, apps: apps, returnLanding: returnLanding)
        configuration.tokenAudience = tokenAudience
        configuration.previousTokenSigningKeys = previousTokenSigningKeys
        configuration.tokenClockSkew = TimeInterval(tokenClockSkew)
        configuration.tokenMaxLifetime = TimeInterval(tokenMaxLifetime)
        configuration.servesWebShell = servesWebShell
        configuration.retention = retention
        if let password = environment[OptionalSecretVariable.databasePassword.rawValue], !password.isEmpty {
            configuration.databasePassword = Secret(password)
        }
        return configuration
    }
}

extension ConfigurationReader {
    /// A bare DNS host name at `path` (`partner.example`: no scheme, port, path or userinfo), lowercased; the raw value
    /// (with a failure) otherwise, so a typo fails at load instead of a generic return that never matches.
    mutating func hostName(_ object: [String: JSONValue], _ key: String, path: String) -> String {
        let value = string(object, key, path: path)
        let host = value.lowercased()
        guard !value.isEmpty else { return value }
        guard Self.isHostName(host), host.contains(".") || host == "localhost" else {
            fail(path, "must be a bare host name, such as partner.example (no scheme, port or path)")
            return value
        }
        return host
    }

    /// A provider's previous webhook secret (`name`, `whsec_…`) and the end of its window (`path`, RFC 3339): both or
    /// neither.
    mutating func previousWebhookSecret(
        _ environment: [String: String], _ name: String, _ object: [String: JSONValue], path: String
    ) -> (secret: Secret, until: Date)? {
        let key = String(path.split(separator: ".").last ?? "")
        let hasSecret = !(environment[name] ?? "").isEmpty
        guard object[key] != nil || hasSecret else { return nil }
        guard hasSecret else {
            fail(name, "must be set while \(path) is (or remove \(path))")
            return nil
        }
        let secret = webhookSecret(environment, name)
        guard object[key] != nil else {
            fail(path, "is required while \(name) is set: when the previous secret stops being accepted (RFC 3339)")
            return nil
        }
        guard let until = RFC3339.date(from: string(object, key, path: path)) else {
            fail(path, "must be an RFC 3339 instant such as 2026-12-31T00:00:00Z")
            return nil
        }
        return (secret, until)
    }

    /// `<provider>.journeyHosts`: hosts (`host` or `host:port`) a journey URL may have. Absent: the `documented`
    /// hosts (the provider document's), else the host of `defaultOrigin` (the API origin).
    mutating func journeyHosts(
        _ object: [String: JSONValue], path: String, defaultOrigin: String, documented: JourneyHostPins?
    ) -> JourneyHostPins {
        let fallback =
            documented ?? JourneyHostPins.pin(forOrigin: defaultOrigin).flatMap { JourneyHostPins([$0]) }
            ?? JourneyHostPins(["invalid.invalid"])!
        guard object["journeyHosts"] != nil else { return fallback }
        let entries = strings(object, "journeyHosts", path: path)
        guard !entries.isEmpty else { return fallback }
        guard let pins = JourneyHostPins(entries) else {
            fail(path, "must list hosts (verify.example.com) or host:port, without a scheme or path")
            return fallback
        }
        return pins
    }

    /// `BATON_TOKEN_PREVIOUS_SIGNING_KEYS`: retired token signing keys, comma-separated, each at least 32 characters,
    /// each optionally followed by `@` and the RFC 3339 instant from which it no longer verifies
    /// (`KEY@2026-12-31T00:00:00Z`).
    mutating func previousTokenKeys(_ environment: [String: String]) -> [RetiredTokenKey] {
        let name = "BATON_TOKEN_PREVIOUS_SIGNING_KEYS"
        guard let value = environment[name], !value.isEmpty else { return [] }
        var keys: [RetiredTokenKey] = []
        for entry in value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            var key = entry
            var end: Date?
            if let at = entry.lastIndex(of: "@"),
                let date = RFC3339.date(from: String(entry[entry.index(after: at)...]))
            {
                key = String(entry[..<at])
                end = date
            }
            guard key.utf8.count >= 32 else {
                fail(name, "each comma-separated key must be at least 32 characters (then optionally @RFC3339-end)")
                return []
            }
            keys.append(RetiredTokenKey(key: Secret(key), notAfter: end))
        }
        return keys
    }

    /// The return URL at `path`; `nil`, with the failure recorded, when it is missing or invalid.
    mutating func returnURL(
        _ object: [String: JSONValue], _ key: String, path: String, httpsOnly: Bool
    )
        -> RegisteredReturnURL?
    {
        let value = string(object, key, path: path)
        guard !value.isEmpty else { return nil }
        do {
            let url = try RegisteredReturnURL(value)
            if httpsOnly && !url.isHTTPS {
                fail(path, "must be an https URL (custom schemes are rejected for this provider)")
            }
            return url
        } catch {
            fail(path, "is not a valid return URL (\(error.code.rawValue))")
            return nil
        }
    }

    mutating func integers(
        _ object: [String: JSONValue], _ key: String, path: String, default fallback: [Int]
    )
        -> [Int]
    {
        guard let value = object[key] else { return fallback }
        guard case .array(let array) = value, !array.isEmpty,
            case let numbers = array.compactMap({ if case .number(let n) = $0 { Int(exactly: n) } else { nil } }),
            numbers.count == array.count
        else {
            fail(path, "must be a non-empty array of whole numbers")
            return fallback
        }
        return numbers
    }

    mutating func checkAppIDs(_ apps: BackendConfiguration.Apps) {
        for (index, id) in apps.appleAppIDs.enumerated() {
            let parts = id.split(separator: ".", maxSplits: 1)
            if parts.count != 2 || parts[0].count != 10
                || !parts[0].allSatisfy({ $0.isASCII && $0.isLetter || $0.isNumber })
            {
                fail("apps.apple.appIDs[\(index)]", "must be TEAMID.bundle.identifier with a 10-character team id")
            }
        }
        for (index, print) in apps.androidCertificateFingerprints.enumerated() {
            let bytes = print.split(separator: ":")
            if bytes.count != 32 || !bytes.allSatisfy({ Hex.decode(String($0))?.count == 1 }) {
                fail("apps.android.sha256CertFingerprints[\(index)]", "must be 32 colon-separated hex bytes")
            }
        }
        if !apps.androidCertificateFingerprints.isEmpty && apps.androidPackageName == nil {
            fail("apps.android.packageName", "is required when certificate fingerprints are given")
        }
    }
}
