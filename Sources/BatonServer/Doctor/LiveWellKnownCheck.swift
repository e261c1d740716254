import BatonCore
import BatonHTTP
import Foundation

/// `baton doctor --live ORIGIN`: fetches the deployed `/.well-known/apple-app-site-association` and
/// `/.well-known/assetlinks.json` from every host the configuration names, as a device would, and says what is
/// wrong.
///
/// Each host (``BackendConfiguration/associatedHosts``: the https return hosts, the Chia generic return host and the
/// landing page's open host) is asked by name over https at `ORIGIN`'s address (as `curl --connect-to`): the TLS
/// name, certificate check and `Host` are the host's own. No redirect is followed (Apple and Android follow none),
/// the answer must be `200` `application/json` of at most 128 KiB, and its content must vouch for the configured app
/// ids and paths, with `webcredentials` beside `applinks`. Certificates are always verified; a test CA can be
/// trusted instead of the system's with `caFile`.
public struct LiveWellKnownCheck: Sendable {
    /// Apple's limit for an association file, and the limit here for both files.
    public static let maxBytes = 128 * 1024
    static let appleFile = "/.well-known/apple-app-site-association"
    static let androidFile = "/.well-known/assetlinks.json"

    let connectTo: String
    let transport: any HTTPTransport
    let timeout: Duration

    /// Checks the deployment at `origin` (`https://host[:port]`), trusting the CA certificates in `caFile` instead of
    /// the system's when given.
    ///
    /// - Throws: ``DoctorUsageError`` when `origin` is not an https origin.
    public init(origin: String, caFile: String? = nil, timeout: Duration = .seconds(5)) throws(DoctorUsageError) {
        guard let parts = RawURLComponents(origin), parts.normalizedScheme == "https", parts.userinfo == nil,
            parts.query == nil, parts.fragment == nil, parts.path.isEmpty || parts.path == "/", !parts.host.isEmpty
        else { throw DoctorUsageError("--live must be an https origin, such as https://partner.example") }
        var configuration = CurlTransport.Configuration()
        configuration.caFile = caFile
        configuration.connectTimeout = timeout
        configuration.maxResponseBytes = Self.maxBytes
        self.init(
            connectTo: "\(parts.host):\(parts.effectivePort ?? 443)",
            transport: CurlTransport(configuration: configuration),
            timeout: timeout)
    }

    init(connectTo: String, transport: any HTTPTransport, timeout: Duration) {
        self.connectTo = connectTo
        self.transport = transport
        self.timeout = timeout
    }

    /// The findings for every host and file, in host order.
    func findings(_ configuration: BackendConfiguration) async -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        for host in configuration.associatedHosts {
            if !configuration.apps.appleAppIDs.isEmpty {
                let fetched = await fetch(host: host, file: Self.appleFile)
                findings += Self.evaluate(host: host, file: Self.appleFile, fetched: fetched) {
                    Self.appleProblems($0, configuration: configuration)
                }
            }
            if configuration.apps.androidPackageName != nil {
                let fetched = await fetch(host: host, file: Self.androidFile)
                findings += Self.evaluate(host: host, file: Self.androidFile, fetched: fetched) {
                    Self.androidProblems($0, configuration: configuration)
                }
            }
        }
        if findings.isEmpty {
            findings.append(
                DoctorFinding(
                    .warn, "live", "nothing to fetch: no apps.apple.appIDs and no apps.android.packageName",
                    fix: "configure the app identities the well-known files vouch for"))
        }
        return findings
    }

    private func fetch(host: String, file: String) async -> Result<OutboundResponse, TransportError> {
        var request = OutboundRequest(method: .get, url: "https://\(host)\(file)", timeout: timeout)
        request.connectTo = connectTo
        request.headers.set("accept", "application/json")
        do {
            return .success(try await transport.send(request))
        } catch let error as TransportError {
            return .failure(error)
        } catch {
            return .failure(TransportError(.other))
        }
    }

    /// Judges one fetched file: transport, status, redirect, type and size, then its content through `content`
    /// (which returns `(level, problem, fix)` triples; none means the content is right).
    static func evaluate(
        host: String, file: String, fetched: Result<OutboundResponse, TransportError>,
        content: ([String: Any]?) -> [(DoctorFinding.Level, String, String)]
    ) -> [DoctorFinding] {
        let field = "live https://\(host)\(file)"
        let serve = "serve the generated file from baton serve at https://\(host)\(file) (proxy it there unchanged)"
        let response: OutboundResponse
        switch fetched {
        case .failure(let error):
            let (message, fix): (String, String) =
                switch error.kind {
                case .tls:
                    (
                        "the TLS handshake or certificate check failed",
                        "serve a certificate valid for \(host) from a CA devices trust (never self-signed)"
                    )
                case .responseTooLarge:
                    ("is larger than 128 KiB", "Apple reads at most 128 KiB: serve the generated file")
                case .timedOut: ("no answer in time", "check that \(host) reaches this deployment")
                default: ("could not be fetched (\(error.kind.rawValue))", "check DNS and that \(host) serves https")
                }
            return [DoctorFinding(.fail, field, message, fix: fix)]
        case .success(let answer): response = answer
        }
        if (300..<400).contains(response.status) {
            let location = printable(response.headers["location"] ?? "no Location")
            return [
                DoctorFinding(
                    .fail, field, "redirects (HTTP \(response.status) to \(location))",
                    fix: "devices follow no redirect for this file: " + serve)
            ]
        }
        guard response.status == 200 else {
            return [DoctorFinding(.fail, field, "answers HTTP \(response.status)", fix: serve)]
        }
        if response.body.count > maxBytes {
            return [DoctorFinding(.fail, field, "is larger than 128 KiB", fix: "serve the generated file")]
        }
        let type = (response.headers["content-type"] ?? "").split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard type == "application/json" else {
            return [
                DoctorFinding(
                    .fail, field,
                    "is served as \(type.map { $0.isEmpty ? "nothing" : printable($0) } ?? "nothing"), not "
                        + "application/json",
                    fix: "set Content-Type: application/json for \(file) (or proxy baton serve's answer unchanged)")
            ]
        }
        let json = try? JSONSerialization.jsonObject(with: Data(response.body))
        guard json != nil else {
            return [DoctorFinding(.fail, field, "is not valid JSON", fix: serve)]
        }
        let problems = content(json as? [String: Any] ?? (json as? [Any]).map { ["statements": $0] })
        guard !problems.isEmpty else {
            return [DoctorFinding(.ok, field, "200 application/json, \(response.body.count) bytes, as configured")]
        }
        return problems.map { DoctorFinding($0.0, field, $0.1, fix: $0.2) }
    }
}
