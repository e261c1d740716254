import BatonCore
import Foundation
import Testing

@testable import BatonServer

/// The sandbox's backend configuration is a typed value, checked by the same rules as a configuration file.
@Suite struct SandboxBackendSettingsTests {
    static func settings() -> SandboxBackendSettings {
        SandboxBackendSettings(
            port: 8181, publicOrigin: "http://127.0.0.1:8181", database: "sqlite:/tmp/baton-settings.sqlite",
            tokenAudience: "baton-sandbox", chiaOrigin: "http://127.0.0.1:8182", privueOrigin: "http://127.0.0.1:8183",
            bbOrigin: "http://127.0.0.1:8184",
            returnLanding: BackendConfiguration.ReturnLanding(
                openHost: "open.app.example.com", storeFallbackText: "Get it"))
    }

    static func problems(_ settings: SandboxBackendSettings) -> [String] {
        do {
            _ = try BackendConfiguration.sandbox(settings, environment: BackendConfigurationTests.environment)
            return []
        } catch {
            return error.errors.map(\.field)
        }
    }

    @Test func everySettingArrivesInTheConfiguration() throws {
        let configuration = try BackendConfiguration.sandbox(
            Self.settings(), environment: BackendConfigurationTests.environment)
        #expect(configuration.allowsLoopbackHTTP)
        #expect(configuration.server.host == "127.0.0.1" && configuration.server.port == 8181)
        #expect(configuration.server.publicOrigin == "http://127.0.0.1:8181")
        #expect(configuration.database == "sqlite:/tmp/baton-settings.sqlite")
        #expect(configuration.tokenAudience == "baton-sandbox")
        #expect(configuration.chia.apiOrigin == "http://127.0.0.1:8182")
        #expect(configuration.chia.assetOrigin == "http://127.0.0.1:8182")
        #expect(configuration.privue.apiOrigin == "http://127.0.0.1:8183")
        #expect(configuration.privue.returnURL.string == "https://app.example.com/kyc/done")
        #expect(configuration.privue.workflows == ["merchant-onboarding"])
        #expect(configuration.bb.apiOrigin == "http://127.0.0.1:8184")
        #expect(configuration.bb.httpsReturnURL.string == "https://app.example.com/bb-callback")
        #expect(configuration.bb.customSchemeReturnURL?.string == "acmewallet://bb-callback")
        #expect(configuration.apps.appleAppIDs == ["ABCDE12345.com.example.wallet"])
        #expect(configuration.returnLanding.openHost == "open.app.example.com")
        #expect(configuration.returnLanding.storeFallbackText == "Get it")
    }

    @Test func withoutAnAudienceOrCustomSchemeTheFileDefaultsApply() throws {
        var settings = Self.settings()
        settings.tokenAudience = nil
        settings.bbCustomSchemeReturnURL = nil
        settings.chiaAssetOrigin = "http://127.0.0.1:8185"
        let configuration = try BackendConfiguration.sandbox(
            settings, environment: BackendConfigurationTests.environment)
        #expect(configuration.tokenAudience == "http://127.0.0.1:8181")
        #expect(configuration.bb.customSchemeReturnURL == nil)
        #expect(configuration.chia.assetOrigin == "http://127.0.0.1:8185")
    }

    /// A wrong value is refused by the file's rule and named by the file's path.
    @Test(arguments: [
        (\SandboxBackendSettings.privueReturnURL, "acmewallet://kyc", ["privue.returnURL"]),
        (\SandboxBackendSettings.chiaOrigin, "http://chia.example", ["chia.apiOrigin", "chia.assetOrigin"]),
        (\SandboxBackendSettings.bbHTTPSReturnURL, "https://app.example.com/v2/x", ["bb.returnURLs.https"]),
        (\SandboxBackendSettings.database, "mysql://db", ["database"]),
    ])
    func aWrongValueIsNamedByItsFilePath(
        field: WritableKeyPath<SandboxBackendSettings, String> & Sendable, value: String, paths: [String]
    ) {
        var settings = Self.settings()
        settings[keyPath: field] = value
        #expect(Self.problems(settings) == paths)
    }

    @Test func aMissingSecretIsNamedByItsVariable() {
        var environment = BackendConfigurationTests.environment
        environment["BATON_BB_CLIENT_ID"] = nil
        #expect(throws: ConfigurationErrors.self) {
            try BackendConfiguration.sandbox(Self.settings(), environment: environment)
        }
    }
}
