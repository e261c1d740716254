import BatonCore
import Foundation

/// The checks on the optional keys and the per-user rate limit: where the provider idempotency-key
/// secret comes from, which retired sealing keys still open replays, and whether the rate limit is on.
extension ConfigurationDoctor {
    static func keyFindings(
        _ configuration: BackendConfiguration, environment: [String: String]
    ) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let idempotency = OptionalSecretVariable.idempotencySecret.rawValue
        if !configuration.idempotencySecretIsConfigured {
            findings.append(
                DoctorFinding(
                    .warn, idempotency,
                    "not set: provider Idempotency-Keys are derived under a key derived from BATON_TOKEN_SIGNING_KEY, "
                        + "so rotating that key changes them",
                    fix: "export \(idempotency)=\"$(openssl rand -base64 32)\", the same on every instance"))
        } else if [SecretVariable.tokenSigningKey, .sealingKey].contains(where: {
            environment[$0.rawValue] == environment[idempotency]
        }) {
            findings.append(
                DoctorFinding(
                    .fail, idempotency, "has the same value as another secret",
                    fix: "give every secret its own random value"))
        } else {
            findings.append(DoctorFinding(.ok, idempotency, "set: provider Idempotency-Keys are derived under it"))
        }
        let previous = OptionalSecretVariable.previousSealingKeys.rawValue
        if configuration.previousSealingKeys.contains(configuration.sealingKey) {
            findings.append(
                DoctorFinding(
                    .warn, previous, "lists the current BATON_SEALING_KEY",
                    fix: "list only retired keys; the current one is always used"))
        } else if !configuration.previousSealingKeys.isEmpty {
            findings.append(
                DoctorFinding(
                    .ok, previous,
                    "\(configuration.previousSealingKeys.count) retired key(s) still open stored replays",
                    fix: "remove them 24 hours after the rotation: nothing they sealed is kept longer"))
        }
        let limit = configuration.rateLimit
        if limit.enabled {
            findings.append(
                DoctorFinding(
                    .ok, "rateLimit", "\(limit.burst) requests per user in a burst, \(limit.perMinute) per minute after"
                ))
        } else {
            findings.append(
                DoctorFinding(
                    .warn, "rateLimit.enabled", "off: one user can spend the partner's whole provider quota",
                    fix: "remove rateLimit.enabled (it is on by default) and size rateLimit.burst/perMinute instead"))
        }
        return findings
    }
}
