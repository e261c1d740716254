import BatonCore
import Foundation

/// The generated association files, read back as a device would, against the configured app identities.
extension ConfigurationDoctor {
    static func wellKnownFindings(_ configuration: BackendConfiguration) -> [DoctorFinding] {
        let documents = WellKnownDocuments(configuration: configuration)
        return appleFindings(configuration, documents) + androidFindings(configuration, documents)
    }

    private static func appleFindings(
        _ configuration: BackendConfiguration, _ documents: WellKnownDocuments
    ) -> [DoctorFinding] {
        let field = "/.well-known/apple-app-site-association"
        let appIDs = configuration.apps.appleAppIDs
        guard !appIDs.isEmpty else {
            return [
                DoctorFinding(
                    .warn, "apps.apple.appIDs",
                    "empty: the association file vouches for no app, so https returns "
                        + "open Safari instead of the app",
                    fix: "add apps.apple.appIDs, e.g. [\"ABCDE12345.com.example.wallet\"]")
            ]
        }
        if Set(appIDs).count != appIDs.count {
            return [DoctorFinding(.fail, "apps.apple.appIDs", "lists an app id twice", fix: "list each app id once")]
        }
        let expectedPaths = configuration.landingPaths
        guard let body = try? documents.appleAppSiteAssociation().body,
            let document = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let applinks = document["applinks"] as? [String: Any],
            let details = applinks["details"] as? [[String: Any]], details.count == 1,
            let components = details[0]["components"] as? [[String: Any]],
            let credentials = (document["webcredentials"] as? [String: Any])?["apps"] as? [String]
        else {
            return [DoctorFinding(.fail, field, "could not be generated", fix: "report this as a Baton bug")]
        }
        let listed = details[0]["appIDs"] as? [String] ?? []
        let paths = components.compactMap { $0["/"] as? String }
        guard listed == appIDs, credentials == appIDs, paths == expectedPaths else {
            return [
                DoctorFinding(
                    .fail, field, "does not match apps.apple.appIDs and the https return paths",
                    fix: "report this as a Baton bug")
            ]
        }
        return [
            DoctorFinding(
                .ok, field,
                "applinks and webcredentials for \(appIDs.joined(separator: ", ")); paths "
                    + expectedPaths.joined(separator: ", "))
        ]
    }

    private static func androidFindings(
        _ configuration: BackendConfiguration, _ documents: WellKnownDocuments
    ) -> [DoctorFinding] {
        let field = "/.well-known/assetlinks.json"
        guard let package = configuration.apps.androidPackageName else {
            return [DoctorFinding(.ok, field, "no Android app configured: an empty statement list")]
        }
        let fingerprints = configuration.apps.androidCertificateFingerprints
        if fingerprints.isEmpty {
            return [
                DoctorFinding(
                    .fail, "apps.android.sha256CertFingerprints", "empty: Android cannot verify \(package)'s app links",
                    fix: "add the SHA-256 fingerprint of the app's signing certificate (keytool -list -v …)")
            ]
        }
        if Set(fingerprints.map { $0.uppercased() }).count != fingerprints.count {
            return [
                DoctorFinding(
                    .fail, "apps.android.sha256CertFingerprints", "lists a fingerprint twice",
                    fix: "list each fingerprint once")
            ]
        }
        guard let body = try? documents.assetLinks().body,
            let statements = (try? JSONSerialization.jsonObject(with: Data(body))) as? [[String: Any]],
            statements.count == 1, let target = statements[0]["target"] as? [String: Any]
        else {
            return [DoctorFinding(.fail, field, "could not be generated", fix: "report this as a Baton bug")]
        }
        guard target["package_name"] as? String == package,
            target["sha256_cert_fingerprints"] as? [String] == fingerprints,
            statements[0]["relation"] as? [String] == ["delegate_permission/common.handle_all_urls"]
        else {
            return [
                DoctorFinding(
                    .fail, field, "does not match apps.android", fix: "report this as a Baton bug")
            ]
        }
        let count = fingerprints.count
        return [
            DoctorFinding(.ok, field, "\(package) with \(count) certificate fingerprint\(count == 1 ? "" : "s")")
        ]
    }
}
