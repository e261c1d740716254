import BatonHTTP
import BatonHTTPTesting
import Foundation
import Testing

@testable import BatonServer

/// `baton doctor`'s checks, on configurations built in memory and a transport that answers without a network.
@Suite("Configuration doctor")
struct ConfigurationDoctorTests {
    /// Answers every probe with `status`, or fails it with `error`.
    struct ProbeTransport: HTTPTransport {
        var status = 404
        var error: TransportError?

        func send(_ request: OutboundRequest) async throws -> OutboundResponse {
            if let error { throw error }
            return OutboundResponse(status: status)
        }
    }

    static let goodApps = """
        {"apple": {"appIDs": ["ABCDE12345.com.example.wallet"]},
         "android": {"packageName": "com.example.wallet",
                     "sha256CertFingerprints": ["\(Array(repeating: "AB", count: 32).joined(separator: ":"))"]}}
        """

    static func file(
        publicOrigin: String = "https://app.example.com", customScheme: Bool = true, apps: String = goodApps,
        development: Bool = false
    ) -> Data {
        let scheme = customScheme ? #", "customScheme": "acmewallet://bb-callback""# : ""
        return Data(
            """
            {
              \(development ? #""development": {"allowLoopbackHTTP": true},"# : "")
              "server": {"publicOrigin": "\(publicOrigin)"},
              "chia": {"apiOrigin": "https://api.chia.example", "assetOrigin": "https://assets.chia.example"},
              "privue": {"apiOrigin": "https://api.privue.example", "returnURL": "https://app.example.com/kyc/done",
                         "workflows": ["merchant-onboarding"]},
              "bb": {"apiOrigin": "https://api.chia.example",
                     "returnURLs": {"https": "https://app.example.com/bb-callback"\(scheme)}},
              "apps": \(apps)
            }
            """.utf8)
    }

    static func check(
        _ file: Data = file(), environment: [String: String] = TestConfiguration.environment,
        transport: ProbeTransport = ProbeTransport()
    ) async -> DoctorReport {
        await ConfigurationDoctor(transport: transport, timeout: .seconds(1)).check(
            json: file, environment: environment)
    }

    static func finding(_ report: DoctorReport, _ field: String) -> DoctorFinding? {
        report.findings.first { $0.field == field }
    }

    static var randomEnvironment: [String: String] {
        var environment = TestConfiguration.environment
        environment["BATON_CHIA_API_KEY"] = "ck_live_4f9a1c2e7b3d8a60"
        environment["BATON_PRIVUE_API_KEY"] = "pk_live_91b2c3d4e5f6a7b8"
        environment["BATON_BB_API_KEY"] = "bk_live_0a1b2c3d4e5f6789"
        environment["BATON_SEALING_KEY"] = Data((0..<32).map { UInt8($0 * 7 + 3) }).base64EncodedString()
        environment["BATON_PRIVUE_WEBHOOK_SECRET"] = "whsec_" + Data((0..<32).map { UInt8($0) }).base64EncodedString()
        environment["BATON_BB_WEBHOOK_SECRET"] = "whsec_" + Data((0..<32).map { UInt8($0 + 100) }).base64EncodedString()
        return environment
    }

    @Test func aGoodConfigurationHasNoFailureAndProbesEachOriginOnce() async {
        let report = await Self.check(environment: Self.randomEnvironment)
        #expect(!report.hasFailures, "\(report.findings.filter { $0.level != .ok })")
        #expect(Self.finding(report, "(file)")?.level == .ok)
        #expect(Self.finding(report, "chia.apiOrigin")?.message.contains("reachable (HTTP 404") == true)
        #expect(Self.finding(report, "bb.apiOrigin")?.message == "same origin as chia.apiOrigin (see above)")
        #expect(report.summary.hasSuffix(", 0 failed"))
    }

    @Test func everyLoadErrorIsAFailLineWithItsFieldAndAFix() async {
        var environment = Self.randomEnvironment
        environment["BATON_BB_API_KEY"] = nil
        environment["BATON_SEALING_KEY"] = "short"
        let report = await Self.check(environment: environment)
        #expect(report.hasFailures)
        let missing = Self.finding(report, "BATON_BB_API_KEY")
        #expect(missing?.level == .fail)
        #expect(missing?.fix?.contains("provider's dashboard") == true)
        #expect(Self.finding(report, "BATON_SEALING_KEY")?.fix?.contains("openssl rand -base64 32") == true)
        #expect(Self.finding(report, "(further checks)")?.level == .warn)
    }

    @Test func aMisspelledSettingIsTold() async {
        let text = String(decoding: Self.file(), as: UTF8.self)
            .replacingOccurrences(of: #""server": {"#, with: #""server": {"hots": "127.0.0.1", "#)
        let report = await Self.check(Data(text.utf8))
        let typo = Self.finding(report, "server.hots")
        #expect(typo?.level == .fail)
        #expect(typo?.fix == "remove it or correct its spelling (docs/configuration.md lists every setting)")
    }

    /// The fix follows the error's kind, never its wording.
    @Test func theFixFollowsTheKindNotTheWording() {
        let worded = ConfigurationError(field: "server.port", problem: "is not a known setting")
        #expect(ConfigurationDoctor.fixHint(for: worded) == "see server.port in docs/configuration.md")
        let unknown = ConfigurationError(field: "server.hots", problem: "unknown", kind: .unknownSetting)
        #expect(ConfigurationDoctor.fixHint(for: unknown).contains("correct its spelling"))
    }

    @Test func anUnreachableOriginIsAWarningNotAFailure() async {
        let report = await Self.check(
            environment: Self.randomEnvironment, transport: ProbeTransport(error: TransportError(.connectFailed)))
        let line = Self.finding(report, "privue.apiOrigin")
        #expect(line?.level == .warn)
        #expect(line?.message.contains("not reachable") == true)
        #expect(!report.hasFailures)
    }

    @Test func probesALiveOriginWithLibcurl() async throws {
        var router = Router()
        router.get("/") { _ in .text("provider\n") }
        try await router.test(.live) { client in
            let origin = try #require(client.baseURL)
            let file = String(decoding: Self.file(development: true), as: UTF8.self)
                .replacingOccurrences(of: "https://api.chia.example", with: origin)
            // Generous: a loaded CI host may be slow to answer; an unreachable origin is tested separately.
            let doctor = ConfigurationDoctor(timeout: .seconds(15))
            let report = await doctor.check(json: Data(file.utf8), environment: Self.randomEnvironment)
            let line = Self.finding(report, "chia.apiOrigin")
            #expect(line?.level == .ok)
            #expect(line?.message == "\(origin) is reachable (HTTP 200 to HEAD /)")
        }
    }

    @Test func placeholderRepeatedAndLowVarietySecretsFail() async {
        var environment = Self.randomEnvironment
        environment["BATON_CHIA_API_KEY"] = "changeme-changeme-123"
        environment["BATON_PRIVUE_API_KEY"] = Self.randomEnvironment["BATON_BB_API_KEY"]
        environment["BATON_BB_WEBHOOK_SECRET"] = "whsec_" + Data(repeating: 9, count: 32).base64EncodedString()
        let report = await Self.check(environment: environment)
        #expect(Self.finding(report, "BATON_CHIA_API_KEY")?.message == "looks like a placeholder")
        #expect(Self.finding(report, "BATON_BB_API_KEY")?.message == "has the same value as BATON_PRIVUE_API_KEY")
        #expect(Self.finding(report, "BATON_BB_WEBHOOK_SECRET")?.level == .fail)
    }

    @Test func sandboxKeysOutsideDevelopmentAreAWarning() async {
        var environment = Self.randomEnvironment
        environment["BATON_BB_API_KEY"] = "bb_test_0a1b2c3d4e5f6789"
        let production = await Self.check(environment: environment)
        #expect(Self.finding(production, "BATON_BB_API_KEY")?.level == .warn)
        let development = await Self.check(Self.file(development: true), environment: environment)
        #expect(Self.finding(development, "BATON_BB_API_KEY")?.level == .ok)
        #expect(Self.finding(development, "development.allowLoopbackHTTP")?.level == .fail)
    }

    @Test func everyDevelopmentSwitchFailsTheCheck() async {
        let development = await Self.check(Self.file(development: true))
        #expect(Self.finding(development, "development.allowLoopbackHTTP")?.level == .fail)
        #expect(development.findings.contains { $0.level == .fail })
        let text = String(decoding: Self.file(development: true), as: UTF8.self).replacingOccurrences(
            of: #""allowLoopbackHTTP": true"#, with: #""allowLoopbackHTTP": true, "sandboxEvidence": true"#)
        let fixtures = await Self.check(Data(text.utf8))
        #expect(Self.finding(fixtures, "development.sandboxEvidence")?.level == .fail)
        let production = await Self.check()
        #expect(Self.finding(production, "development.allowLoopbackHTTP")?.level == .ok)
        #expect(Self.finding(production, "development.sandboxEvidence") == nil)
    }

    @Test func aReturnURLOnAnotherHostThanThePublicOriginIsAWarning() async {
        let report = await Self.check(Self.file(publicOrigin: "https://api.partner.example"))
        let line = Self.finding(report, "bb.returnURLs.https")
        #expect(line?.level == .warn)
        #expect(line?.message.contains("app.example.com") == true)
        #expect(line?.fix?.contains("server.publicOrigin") == true)
    }

    @Test func aMissingCustomSchemeFallbackIsAWarning() async {
        let report = await Self.check(Self.file(customScheme: false))
        #expect(Self.finding(report, "bb.returnURLs.customScheme")?.level == .warn)
    }

    @Test func theAssociationFilesListExactlyTheConfiguredApps() async {
        let report = await Self.check(environment: Self.randomEnvironment)
        let apple = Self.finding(report, "/.well-known/apple-app-site-association")
        #expect(apple?.level == .ok)
        #expect(apple?.message.contains("ABCDE12345.com.example.wallet; paths /bb-callback, /kyc/done") == true)
        #expect(Self.finding(report, "/.well-known/assetlinks.json")?.message.contains("com.example.wallet") == true)
    }

    @Test func noAppleAppOrAnAndroidAppWithoutFingerprintsIsFlagged() async {
        let report = await Self.check(Self.file(apps: #"{"android": {"packageName": "com.example.wallet"}}"#))
        #expect(Self.finding(report, "apps.apple.appIDs")?.level == .warn)
        #expect(Self.finding(report, "apps.android.sha256CertFingerprints")?.level == .fail)
        let twice = await Self.check(
            Self.file(apps: #"{"apple": {"appIDs": ["ABCDE12345.com.a", "ABCDE12345.com.a"]}}"#))
        #expect(Self.finding(twice, "apps.apple.appIDs")?.level == .fail)
    }

    @Test func noLineCarriesASecretValue() async {
        var environment = Self.randomEnvironment
        environment["BATON_CHIA_API_KEY"] = "changeme-changeme-123"
        let reports = [
            await Self.check(environment: environment), await Self.check(environment: Self.randomEnvironment),
        ]
        for report in reports {
            let text = report.findings.map(\.description).joined(separator: "\n")
            for variable in SecretVariable.allCases where variable != .bbClientID {
                let value = environment[variable.rawValue] ?? ""
                #expect(!text.contains(value), "\(variable.rawValue) leaked")
            }
        }
    }
}
