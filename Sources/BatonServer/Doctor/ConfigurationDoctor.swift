import BatonCore
import BatonHTTP
import Foundation

/// `baton doctor`: checks a configuration line by line and says what to fix.
///
/// First the configuration is loaded exactly as `baton serve` loads it (``BackendConfiguration/load(json:environment:)``),
/// so every problem that would stop the server is one `fail` line with its field. A configuration that loads is then
/// checked further: secrets that look like placeholders or sandbox keys, return URLs against the origin that serves
/// the well-known files, the generated `apple-app-site-association` and `assetlinks.json` against the configured app
/// ids, whether the store opens (without creating or migrating it), and whether each provider origin answers from here (an origin that does not is a `warn`, never a crash).
///
/// ```swift
/// let report = await ConfigurationDoctor().check(json: file, environment: ProcessInfo.processInfo.environment)
/// report.findings.forEach { print($0) }
/// ```
public struct ConfigurationDoctor: Sendable {
    private let transport: any HTTPTransport
    private let timeout: Duration

    /// Creates a doctor that probes origins through `transport` (libcurl by default), waiting at most `timeout` each.
    public init(transport: (any HTTPTransport)? = nil, timeout: Duration = .seconds(3)) {
        var curl = CurlTransport.Configuration()
        curl.connectTimeout = timeout
        self.transport = transport ?? CurlTransport(configuration: curl)
        self.timeout = timeout
    }

    /// Checks the configuration file contents `file` with the secrets in `environment`; `offline` skips the checks
    /// that need the network (provider origins, a PostgreSQL store), for CI runs of an example or a template; with
    /// `live`, also fetches the deployed well-known files from every host the configuration names
    /// (``LiveWellKnownCheck``).
    public func check(
        json file: Data, environment: [String: String], offline: Bool = false, live: LiveWellKnownCheck? = nil
    ) async -> DoctorReport {
        let configuration: BackendConfiguration
        do {
            configuration = try BackendConfiguration.load(json: file, environment: environment)
        } catch {
            var report = DoctorReport(findings: error.errors.map(Self.finding(for:)))
            report.findings.append(
                DoctorFinding(
                    .warn, "(further checks)", "skipped until the configuration loads",
                    fix: "fix the lines above, then run baton doctor again"))
            return report
        }
        var report = DoctorReport(findings: [DoctorFinding(.ok, "(file)", "loads: every field and secret is valid")])
        report.findings += Self.developmentFindings(configuration)
        report.findings += Self.secretFindings(configuration, environment: environment)
        report.findings += Self.keyFindings(configuration, environment: environment)
        report.findings += Self.returnURLFindings(configuration)
        report.findings += Self.wellKnownFindings(configuration)
        report.findings += Self.landingFindings(configuration)
        report.findings += Self.databaseLinkFindings(configuration)
        report.findings += Self.rotationFindings(configuration, now: Date())
        if offline {
            if case .sqlite = (try? StoreURL(configuration.database))?.location {
                report.findings += await Self.storeFindings(configuration)
            }
            report.findings.append(
                DoctorFinding(
                    .warn, "(network)", "skipped: --offline (provider origins and a PostgreSQL store are not checked)",
                    fix: "run baton doctor without --offline on the host that runs baton serve"))
            return report
        }
        report.findings += await Self.storeFindings(configuration)
        report.findings += await reachabilityFindings(configuration)
        if let live { report.findings += await live.findings(configuration) }
        return report
    }

    /// One line per distinct provider origin: reachable when it answers anything at all over HTTP.
    func reachabilityFindings(_ configuration: BackendConfiguration) async -> [DoctorFinding] {
        let origins = [
            ("chia.apiOrigin", configuration.chia.apiOrigin), ("chia.assetOrigin", configuration.chia.assetOrigin),
            ("privue.apiOrigin", configuration.privue.apiOrigin), ("bb.apiOrigin", configuration.bb.apiOrigin),
        ]
        var seen: [String: DoctorFinding] = [:]
        var findings: [DoctorFinding] = []
        for (field, origin) in origins {
            if let earlier = seen[origin] {
                findings.append(DoctorFinding(earlier.level, field, "same origin as \(earlier.field) (see above)"))
                continue
            }
            let finding = await probe(field, origin)
            seen[origin] = finding
            findings.append(finding)
        }
        return findings
    }

    private func probe(_ field: String, _ origin: String) async -> DoctorFinding {
        let request = OutboundRequest(method: .head, url: origin + "/", timeout: timeout)
        do {
            let response = try await transport.send(request)
            return DoctorFinding(.ok, field, "\(origin) is reachable (HTTP \(response.status) to HEAD /)")
        } catch let error as TransportError {
            let reason =
                switch error.kind {
                case .connectFailed: "no connection (refused, unreachable or name not resolved)"
                case .timedOut: "no answer within \(timeout.components.seconds) s"
                case .tls: "the TLS handshake or certificate check failed"
                case .connectionReset: "the connection broke"
                case .responseTooLarge, .other: "the request failed"
                }
            return DoctorFinding(
                .warn, field, "\(origin) is not reachable from here: \(reason)",
                fix: "check the origin, DNS, and the firewall or proxy between this host and the provider")
        } catch {
            return DoctorFinding(
                .warn, field, "\(origin) could not be probed", fix: "check the origin and this host's network")
        }
    }
}
