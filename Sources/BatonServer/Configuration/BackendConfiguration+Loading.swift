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
        let (allowsLoopbackHTTP, usesSandboxEvidence) = development.development(root)

        var read = ConfigurationReader(allowsLoopbackHTTP: allowsLoopbackHTTP)
        read.rejectUnknownKeys(
            root, path: "",
            known: [
                "server", "database", "development", "tokens", "providers", "chia", "privue", "bb", "apps",
                "returnLanding", "rateLimit", "webShell", "retention",
            ])
        let server = read.server(root)
        let database = read.database(root)
        let chia = read.chia(root, environment)
        let privue = read.privue(root, environment)
        let bb = read.bb(root, environment)
        let apps = read.apps(root)
        let rateLimit = read.rateLimit(root)
        let tokens = read.tokens(root, environment, publicOrigin: server.publicOrigin)
        let sealingKey = read.key256(environment, SecretVariable.sealingKey.rawValue)
        let previousSealingKeys = read.keys256(environment, OptionalSecretVariable.previousSealingKeys.rawValue)
        let providerTimeout = read.providerTimeout(root)
        let returnLanding = read.returnLanding(root)
        read.checkLanding(
            returnURLs: [("bb.returnURLs.https", bb?.httpsReturnURL), ("privue.returnURL", privue?.returnURL)],
            chia: chia, landing: returnLanding)
        let servesWebShell = read.servesWebShell(root)
        let retention = read.retention(root, syncInterval: chia.syncInterval)

        let errors = development.errors + read.errors
        // A section that could not be read is among the errors, so both are present whenever there are none.
        guard errors.isEmpty, let privue, let bb else { throw ConfigurationErrors(errors) }
        var configuration = BackendConfiguration(
            server: server,
            database: database,
            allowsLoopbackHTTP: allowsLoopbackHTTP,
            usesSandboxEvidence: usesSandboxEvidence,
            tokenSigningKey: tokens.signingKey,
            tokenTTL: tokens.ttl,
            sealingKey: sealingKey,
            previousSealingKeys: previousSealingKeys,
            idempotencySecret: tokens.idempotencySecret
                ?? ProviderIdempotencyKeys.derivedSecret(fromTokenSigningKey: tokens.signingKey),
            idempotencySecretIsConfigured: tokens.idempotencySecret != nil,
            rateLimit: rateLimit,
            providerTimeout: providerTimeout,
            chia: chia, privue: privue, bb: bb, apps: apps, returnLanding: returnLanding)
        configuration.tokenAudience = tokens.audience
        configuration.previousTokenSigningKeys = tokens.previousSigningKeys
        configuration.tokenClockSkew = tokens.clockSkew
        configuration.tokenMaxLifetime = tokens.maxLifetime
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
            ?? JourneyHostPins(knownHost: "invalid.invalid")
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
