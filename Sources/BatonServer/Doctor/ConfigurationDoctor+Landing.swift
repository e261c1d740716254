import Foundation

/// The landing pages at the return paths and the second associated host their link goes to.
extension ConfigurationDoctor {
    static func landingFindings(_ configuration: BackendConfiguration) -> [DoctorFinding] {
        let paths = configuration.landingPaths.joined(separator: ", ")
        var findings = [DoctorFinding(.ok, "returnLanding", "landing pages at \(paths) (no query is read or logged)")]
        if let open = configuration.returnLanding.openHost {
            findings.append(
                DoctorFinding(
                    .ok, "returnLanding.openHost",
                    "the landing link goes to https://\(open); the app lists applinks:\(open) and "
                        + "webcredentials:\(open) in its Associated Domains, and \(open) serves this backend's "
                        + "/.well-known/ files (check with baton doctor --live)"))
        } else {
            findings.append(
                DoctorFinding(
                    .warn, "returnLanding.openHost",
                    "not set: on iOS a tap on the landing page's link stays in Safari (same domain), so the page "
                        + "can offer only the custom scheme",
                    fix: "set returnLanding.openHost to a second host (e.g. open.app.example.com) that reaches this "
                        + "backend, and list it in the app's Associated Domains"))
        }
        if configuration.returnLanding.storeFallbackText == nil {
            findings.append(
                DoctorFinding(
                    .warn, "returnLanding.storeFallbackText", "not set: a user without the app sees a generic hint",
                    fix: "say where to get the app, e.g. \"No app yet? Get Acme Wallet from the App Store.\""))
        }
        return findings
    }
}
