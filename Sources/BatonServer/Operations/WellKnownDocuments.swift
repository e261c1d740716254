import BatonCore
import BatonHTTP
import Foundation

/// `/.well-known/apple-app-site-association` and `/.well-known/assetlinks.json`, generated from configuration.
///
/// The Apple file lists `applinks` for the registered https return paths (BB's universal link, seed 002, and
/// Privue's return URL, seed 001, and the Chia generic return path when configured) and `webcredentials` for the same
/// app ids, which
/// `ASWebAuthenticationSession.Callback.https(host:path:)` requires. Both are `application/json`. The same files are
/// served on every host that reaches the backend: the return hosts and the landing page's open host
/// (``BackendConfiguration/associatedHosts``), which the app lists in its Associated Domains.
struct WellKnownDocuments: Sendable {
    let appleAppIDs: [String]
    let returnPaths: [String]
    let androidPackageName: String?
    let androidFingerprints: [String]

    init(configuration: BackendConfiguration) {
        appleAppIDs = configuration.apps.appleAppIDs
        returnPaths = configuration.landingPaths
        androidPackageName = configuration.apps.androidPackageName
        androidFingerprints = configuration.apps.androidCertificateFingerprints
    }

    func appleAppSiteAssociation() throws -> HTTPResponse {
        struct Component: Encodable {
            let path: String
            enum CodingKeys: String, CodingKey { case path = "/" }
        }
        struct Detail: Encodable {
            let appIDs: [String]
            let components: [Component]
        }
        struct AppLinks: Encodable {
            let apps: [String]
            let details: [Detail]
        }
        struct WebCredentials: Encodable { let apps: [String] }
        struct Document: Encodable {
            let applinks: AppLinks
            let webcredentials: WebCredentials
        }
        let details =
            appleAppIDs.isEmpty ? [] : [Detail(appIDs: appleAppIDs, components: returnPaths.map(Component.init))]
        return try Self.json(
            Document(
                applinks: AppLinks(apps: [], details: details), webcredentials: WebCredentials(apps: appleAppIDs)))
    }

    func assetLinks() throws -> HTTPResponse {
        struct Target: Encodable {
            let namespace = "android_app"
            let packageName: String
            let fingerprints: [String]
            enum CodingKeys: String, CodingKey {
                case namespace
                case packageName = "package_name"
                case fingerprints = "sha256_cert_fingerprints"
            }
        }
        struct Statement: Encodable {
            let relation = ["delegate_permission/common.handle_all_urls"]
            let target: Target
        }
        guard let androidPackageName else { return try Self.json([Statement]()) }
        return try Self.json([
            Statement(target: Target(packageName: androidPackageName, fingerprints: androidFingerprints))
        ])
    }

    private static func json<Value: Encodable>(_ value: Value) throws -> HTTPResponse {
        var response = try HTTPResponse.json(value)
        response.headers.set("cache-control", "public, max-age=3600")
        return response
    }
}
