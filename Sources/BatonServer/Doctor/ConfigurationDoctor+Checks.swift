import BatonCore
import BatonCrypto
import Foundation

/// The checks `baton doctor` runs on a configuration that loads. Each is pure: configuration in, findings out.
extension ConfigurationDoctor {
    /// A load error as a `fail` line with a fix hint for its field.
    static func finding(for error: ConfigurationError) -> DoctorFinding {
        DoctorFinding(.fail, error.field, error.problem, fix: fixHint(for: error))
    }

    static func fixHint(for error: ConfigurationError) -> String {
        if let variable = SecretVariable(rawValue: error.field) {
            return switch variable {
            case .tokenSigningKey, .sealingKey:
                "generate it ONCE (openssl rand -base64 32), keep it in a 0600 file or your secret store, and load "
                    + "that same value into every shell and instance (e.g. set -a; . /etc/baton/baton.env); "
                    + "a new value per shell signs users out (\(variable.rawValue))"
            case .chiaAPIKey, .privueAPIKey, .bbAPIKey:
                "set \(variable.rawValue) to the API key from the provider's dashboard (at least 16 characters)"
            case .bbClientID: "set \(variable.rawValue) to the client id BB issued for this app"
            case .privueWebhookSecret, .bbWebhookSecret:
                "set \(variable.rawValue) to the whsec_… signing secret the provider shows for this webhook endpoint"
            }
        }
        if error.field == "(file)" { return "the file must be one JSON object; start from docs/configuration.md" }
        if error.kind == .unknownSetting {
            return "remove it or correct its spelling (docs/configuration.md lists every setting)"
        }
        return "see \(error.field) in docs/configuration.md"
    }

    /// Every development switch is a `fail`: `baton doctor` checks configurations meant for real users, and the
    /// sandbox (`baton serve --sandbox`, `baton demo`) needs no configuration file at all.
    static func developmentFindings(_ configuration: BackendConfiguration) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        if configuration.allowsLoopbackHTTP {
            findings.append(
                DoctorFinding(
                    .fail, "development.allowLoopbackHTTP", "on: plain http to loopback origins is accepted",
                    fix: "remove development.allowLoopbackHTTP: it is for the local sandbox only"))
        } else {
            findings.append(DoctorFinding(.ok, "development.allowLoopbackHTTP", "off: every origin must be https"))
        }
        if configuration.usesSandboxEvidence {
            findings.append(
                DoctorFinding(
                    .fail, "development.sandboxEvidence", "on: the sandbox's fixture users decide who may share",
                    fix: "remove development.sandboxEvidence and plug in your own service-state provider"))
        }
        return findings
    }

    /// Placeholders, low-entropy values, sandbox keys outside development, and one value used for two secrets.
    static func secretFindings(
        _ configuration: BackendConfiguration, environment: [String: String]
    ) -> [DoctorFinding] {
        let placeholders = ["changeme", "change-me", "change_me", "placeholder", "example", "xxxxxx", "todo", "dummy"]
        let sandboxPrefixes = ["chia_test_", "pv_test_", "bb_test_"]
        var findings: [DoctorFinding] = []
        var firstUse: [String: SecretVariable] = [:]
        for variable in SecretVariable.allCases {
            let name = variable.rawValue
            let value = environment[name] ?? ""
            let material =
                value.hasPrefix(WebhookSecret.prefix) ? String(value.dropFirst(WebhookSecret.prefix.count)) : value
            let lowered = value.lowercased()
            if let earlier = firstUse[value], variable != .bbClientID, earlier != .bbClientID {
                findings.append(
                    DoctorFinding(
                        .fail, name, "has the same value as \(earlier.rawValue)",
                        fix: "give every secret its own random value"))
                continue
            }
            firstUse[value] = variable
            if variable == .bbClientID {
                findings.append(DoctorFinding(.ok, name, "set"))
            } else if placeholders.contains(where: lowered.contains) {
                findings.append(
                    DoctorFinding(
                        .fail, name, "looks like a placeholder",
                        fix: fixHint(for: ConfigurationError(field: name, problem: ""))))
            } else if Set(material).count < 8 || decodedVariety(variable, configuration) < 8 {
                findings.append(
                    DoctorFinding(
                        .fail, name, "has fewer than 8 distinct characters or bytes: not a random value",
                        fix: fixHint(for: ConfigurationError(field: name, problem: ""))))
            } else if !configuration.allowsLoopbackHTTP, sandboxPrefixes.contains(where: value.hasPrefix) {
                findings.append(
                    DoctorFinding(
                        .warn, name, "is a sandbox test key outside development mode",
                        fix: "use the production key from the provider's dashboard"))
            } else {
                findings.append(DoctorFinding(.ok, name, "set (\(value.utf8.count) characters)"))
            }
        }
        return findings
    }

    /// How many distinct bytes the decoded key of `variable` has (`Int.max` for keys used as text).
    private static func decodedVariety(_ variable: SecretVariable, _ configuration: BackendConfiguration) -> Int {
        let key: Secret? =
            switch variable {
            case .sealingKey: configuration.sealingKey
            case .privueWebhookSecret: configuration.privue.webhookSecret
            case .bbWebhookSecret: configuration.bb.webhookSecret
            default: nil
            }
        return key?.withBytes { Set($0).count } ?? Int.max
    }

    /// The https return URLs against the origin that serves the association files, and the custom-scheme fallback.
    static func returnURLFindings(_ configuration: BackendConfiguration) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let publicHost = RawURLComponents(configuration.server.publicOrigin)?.normalizedHost ?? ""
        let https = [
            ("bb.returnURLs.https", configuration.bb.httpsReturnURL, "BB"),
            ("privue.returnURL", configuration.privue.returnURL, "Privue"),
        ]
        for (field, url, provider) in https {
            guard let parts = RawURLComponents(url.string) else { continue }
            let host = parts.normalizedHost
            if host == publicHost {
                findings.append(
                    DoctorFinding(
                        .ok, field,
                        "https on \(host), path \(parts.effectivePath); register exactly this URL with \(provider)"))
            } else {
                findings.append(
                    DoctorFinding(
                        .warn, field,
                        "is on \(host), but this backend serves the association files on \(publicHost) "
                            + "(server.publicOrigin); iOS reads them from https://\(host)/.well-known/",
                        fix: "serve /.well-known/ from this backend on \(host), or set server.publicOrigin to it"))
            }
        }
        if let custom = configuration.bb.customSchemeReturnURL, let parts = RawURLComponents(custom.string) {
            findings.append(
                DoctorFinding(
                    .ok, "bb.returnURLs.customScheme",
                    "\(parts.normalizedScheme):// fallback for iOS before 17.4; register exactly this URL with BB"))
        } else {
            findings.append(
                DoctorFinding(
                    .warn, "bb.returnURLs.customScheme", "not set: iOS before 17.4 cannot catch the BB return",
                    fix: "add bb.returnURLs.customScheme (e.g. acmewallet://bb-callback) and register it with BB"))
        }
        if let host = configuration.chia.genericReturnHost {
            if host.contains("/") || host.contains(":") || host.contains("@") || host.contains(" ") {
                findings.append(
                    DoctorFinding(
                        .fail, "chia.genericReturnHost", "must be a bare host name, such as partner.example",
                        fix: "remove the scheme, port and path"))
            } else {
                findings.append(DoctorFinding(.ok, "chia.genericReturnHost", "\(host)"))
            }
        }
        return findings
    }
}
