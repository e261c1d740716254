import BatonCore
import Foundation

/// `baton doctor`'s checks on what a rotation leaves behind and on the pinned provider hosts.
extension ConfigurationDoctor {
    /// A previous webhook secret whose window ended, a retired token key past its end date or without one, and a
    /// Chia or BB journey host list left at its stand-in (the API origin's host).
    static func rotationFindings(_ configuration: BackendConfiguration, now: Date) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let windows = [
            ("privue", configuration.privue.previousWebhookSecretUntil),
            ("bb", configuration.bb.previousWebhookSecretUntil),
        ]
        for (provider, until) in windows {
            guard let until else { continue }
            let field = "\(provider).previousWebhookSecretUntil"
            let variable = "BATON_\(provider.uppercased())_WEBHOOK_SECRET_PREVIOUS"
            if until <= now {
                findings.append(
                    DoctorFinding(
                        .warn, field, "ended \(RFC3339.string(from: until)): the previous secret is no longer accepted",
                        fix: "remove \(variable) and \(field) at the next restart"))
            } else {
                findings.append(
                    DoctorFinding(
                        .ok, field, "the previous webhook secret is accepted until \(RFC3339.string(from: until))"))
            }
        }
        let retired = configuration.previousTokenSigningKeys
        let variable = "BATON_TOKEN_PREVIOUS_SIGNING_KEYS"
        let ended = retired.filter { ($0.notAfter ?? .distantFuture) <= now }.count
        let endless = retired.filter { $0.notAfter == nil }.count
        if ended > 0 {
            findings.append(
                DoctorFinding(
                    .warn, variable, "\(ended) retired key(s) past their end date verify nothing",
                    fix: "remove them from \(variable) at the next restart"))
        }
        if endless > 0 {
            findings.append(
                DoctorFinding(
                    .warn, variable, "\(endless) retired key(s) without an end date verify until removed",
                    fix: "write each as KEY@<RFC 3339 end>, at least tokens.maxLifetimeSeconds after the rotation"))
        }
        let pins = [
            ("chia.journeyHosts", configuration.chia.journeyHostsConfigured, configuration.chia.journeyHosts),
            ("bb.journeyHosts", configuration.bb.journeyHostsConfigured, configuration.bb.journeyHosts),
        ]
        // A development configuration points at the sandbox, whose journeys are on its API origins.
        for (field, configured, hosts) in pins where !configured && !configuration.allowsLoopbackHTTP {
            findings.append(
                DoctorFinding(
                    .warn, field,
                    "not set: journey URLs are accepted only on \(hosts) (the API origin's host; the provider's document "
                        + "names no journey host)",
                    fix: "set \(field) to the hosts the provider confirms for your account's journeys"))
        }
        return findings
    }
}
