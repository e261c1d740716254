import BatonCore
import Foundation
import Testing

@testable import BatonServer

@Suite struct BackendConfigurationTests {
    static let validFile = """
        {
          "server": {"host": "127.0.0.1", "port": 8080, "publicOrigin": "https://partner.example"},
          "database": "sqlite:/tmp/baton-test.sqlite",
          "chia": {"apiOrigin": "https://api.chia.example", "assetOrigin": "https://assets.chia.example",
                   "genericReturnHost": "partner.example"},
          "privue": {"apiOrigin": "https://api.verify.privue.example", "returnURL": "https://partner.example/kyc/done",
                     "workflows": ["merchant-onboarding"]},
          "bb": {"apiOrigin": "https://aisp-partner.bb.example",
                 "returnURLs": {"https": "https://app.example.com/bb-callback", "customScheme": "acmewallet://bb-callback"}},
          "apps": {"apple": {"appIDs": ["ABCDE12345.com.example.wallet"]}}
        }
        """

    static let environment: [String: String] = [
        "BATON_TOKEN_SIGNING_KEY": String(repeating: "t", count: 32),
        "BATON_SEALING_KEY": Data(repeating: 7, count: 32).base64EncodedString(),
        "BATON_CHIA_API_KEY": "chia_live_0123456789abcdef",
        "BATON_PRIVUE_API_KEY": "privue_live_0123456789abcdef",
        "BATON_PRIVUE_WEBHOOK_SECRET": "whsec_" + Data(repeating: 1, count: 32).base64EncodedString(),
        "BATON_BB_API_KEY": "bb_live_0123456789abcdef",
        "BATON_BB_CLIENT_ID": "client-123",
        "BATON_BB_WEBHOOK_SECRET": "whsec_" + Data(repeating: 2, count: 32).base64EncodedString(),
    ]

    static func load(
        _ file: String, environment: [String: String] = environment
    ) throws(ConfigurationErrors)
        -> BackendConfiguration
    {
        try BackendConfiguration.load(json: Data(file.utf8), environment: environment)
    }

    static func problems(_ file: String, environment: [String: String] = environment) -> [String] {
        do {
            _ = try load(file, environment: environment)
            return []
        } catch {
            return error.errors.map(\.field)
        }
    }

    @Test func aCompleteConfigurationLoadsWithDefaults() throws {
        let configuration = try Self.load(Self.validFile)
        #expect(configuration.server.port == 8080)
        #expect(configuration.chia.syncInterval == 300)
        #expect(configuration.chia.decisionPolicy.evidenceTTL == 300)
        #expect(configuration.privue.returnURL.string == "https://partner.example/kyc/done")
        #expect(configuration.bb.customSchemeReturnURL?.string == "acmewallet://bb-callback")
        #expect(configuration.sealingKey.count == 32)
        #expect(configuration.privueWebhookSecretBytes == 32)
    }

    @Test func everyMissingSecretIsNamed() {
        let fields = Self.problems(Self.validFile, environment: [:])
        #expect(Set(fields) == Set(SecretVariable.allCases.map(\.rawValue)))
    }

    @Test func malformedSecretsAreRefusedWithoutEchoingThem() {
        var environment = Self.environment
        environment["BATON_SEALING_KEY"] = "not-base64-and-too-short"
        environment["BATON_BB_WEBHOOK_SECRET"] = "plain-secret-value"
        do {
            _ = try Self.load(Self.validFile, environment: environment)
            Issue.record("expected the configuration to be refused")
        } catch {
            #expect(error.errors.map(\.field) == ["BATON_BB_WEBHOOK_SECRET", "BATON_SEALING_KEY"])
            #expect(!error.description.contains("plain-secret-value"))
            #expect(!error.description.contains("not-base64-and-too-short"))
        }
    }

    @Test(arguments: [
        (
            "\"returnURL\": \"https://partner.example/kyc/done\"", "\"returnURL\": \"acme://kyc/done\"",
            "privue.returnURL"
        ),
        ("\"apiOrigin\": \"https://api.chia.example\"", "\"apiOrigin\": \"http://api.chia.example\"", "chia.apiOrigin"),
        ("\"port\": 8080", "\"port\": 0", "server.port"),
        ("\"port\": 8080", "\"port\": true", "server.port"),
        ("\"database\": \"sqlite:/tmp/baton-test.sqlite\"", "\"database\": \"mysql://x\"", "database"),
        ("\"host\": \"127.0.0.1\"", "\"hots\": \"127.0.0.1\"", "server.hots"),
        ("\"https\": \"https://app.example.com/bb-callback\"", "\"https\": \"acmewallet://x\"", "bb.returnURLs.https"),
        ("\"ABCDE12345.com.example.wallet\"", "\"com.example.wallet\"", "apps.apple.appIDs[0]"),
        ("\"workflows\": [\"merchant-onboarding\"]", "\"workflows\": \"merchant-onboarding\"", "privue.workflows"),
    ])
    func aMalformedFieldIsNamedExactly(original: String, replacement: String, field: String) {
        let file = Self.validFile.replacingOccurrences(of: original, with: replacement)
        #expect(file != Self.validFile)
        #expect(Self.problems(file) == [field])
    }

    /// Each fingerprint byte is two ASCII hex digits: `Character.isHexDigit`, used before, also admits the
    /// fullwidth forms (`ＡＢ`), which no certificate fingerprint holds.
    @Test(arguments: [
        ("AB", true), ("0f", true), ("\u{FF21}\u{FF22}", false), ("G0", false), ("A", false), ("ABC", false),
    ])
    func aFingerprintByteIsTwoASCIIHexDigits(byte: String, valid: Bool) {
        let fingerprint = ([byte] + Array(repeating: "AB", count: 31)).joined(separator: ":")
        let file = Self.validFile.replacingOccurrences(
            of: #""apps": {"apple": {"appIDs": ["ABCDE12345.com.example.wallet"]}}"#,
            with: #""apps": {"apple": {"appIDs": ["ABCDE12345.com.example.wallet"]}, "android": "#
                + #"{"packageName": "com.example.wallet", "sha256CertFingerprints": [""#
                + fingerprint + #""]}}"#)
        #expect(file != Self.validFile)
        #expect(Self.problems(file) == (valid ? [] : ["apps.android.sha256CertFingerprints[0]"]))
    }

    @Test func aMissingSectionIsNamed() {
        let file = Self.validFile.replacingOccurrences(of: "\"bb\":", with: "\"unused\":")
        #expect(Self.problems(file).contains("bb"))
        #expect(Self.problems(file).contains("unused"))
    }

    @Test func loopbackHTTPIsAcceptedOnlyInDevelopmentMode() throws {
        let loopback = Self.validFile.replacingOccurrences(
            of: "\"apiOrigin\": \"https://api.chia.example\"", with: "\"apiOrigin\": \"http://127.0.0.1:9001\"")
        #expect(Self.problems(loopback) == ["chia.apiOrigin"])
        let development = loopback.replacingOccurrences(
            of: "\"database\":", with: "\"development\": {\"allowLoopbackHTTP\": true}, \"database\":")
        #expect(try Self.load(development).chia.apiOrigin == "http://127.0.0.1:9001")
    }

    @Test(arguments: [
        "http://127.attacker.example", "http://127.0.0.1.attacker.example", "http://localhost.attacker.example",
        "http://127.1", "http://0x7f.0.0.1", "http://10.0.0.1:9001",
    ])
    func plainHTTPToAHostThatOnlyLooksLikeLoopbackIsRefusedEvenInDevelopment(origin: String) {
        let development = Self.validFile.replacingOccurrences(
            of: "\"apiOrigin\": \"https://api.chia.example\"", with: "\"apiOrigin\": \"\(origin)\""
        ).replacingOccurrences(
            of: "\"database\":", with: "\"development\": {\"allowLoopbackHTTP\": true}, \"database\":")
        #expect(Self.problems(development) == ["chia.apiOrigin"])
    }

    @Test(arguments: ["http://127.0.0.1:9001", "http://127.8.9.10", "http://localhost:9001", "http://[::1]:9001"])
    func plainHTTPToLoopbackIsAcceptedInDevelopment(origin: String) throws {
        let development = Self.validFile.replacingOccurrences(
            of: "\"apiOrigin\": \"https://api.chia.example\"", with: "\"apiOrigin\": \"\(origin)\""
        ).replacingOccurrences(
            of: "\"database\":", with: "\"development\": {\"allowLoopbackHTTP\": true}, \"database\":")
        #expect(try Self.load(development).chia.apiOrigin == origin)
    }

    @Test func theConnectionCapPerAddressIsConfigurable() throws {
        #expect(try Self.load(Self.validFile).server.maxConnectionsPerAddress == 128)
        let raised = Self.validFile.replacingOccurrences(
            of: "\"port\": 8080,", with: "\"port\": 8080, \"maxConnectionsPerAddress\": 0,")
        #expect(try Self.load(raised).server.maxConnectionsPerAddress == 0)
        let negative = Self.validFile.replacingOccurrences(
            of: "\"port\": 8080,", with: "\"port\": 8080, \"maxConnectionsPerAddress\": -1,")
        #expect(Self.problems(negative) == ["server.maxConnectionsPerAddress"])
    }

    @Test func theInstanceConnectionLimitIsConfigurable() throws {
        #expect(try Self.load(Self.validFile).server.maxConnections == 1024)
        let raised = Self.validFile.replacingOccurrences(
            of: "\"port\": 8080,", with: "\"port\": 8080, \"maxConnections\": 8000,")
        #expect(try Self.load(raised).server.maxConnections == 8000)
    }

    @Test(arguments: ["0", "-1", "1000001", "\"many\""])
    func anInstanceConnectionLimitOutOfBoundsIsRefused(value: String) {
        let file = Self.validFile.replacingOccurrences(
            of: "\"port\": 8080,", with: "\"port\": 8080, \"maxConnections\": \(value),")
        #expect(Self.problems(file) == ["server.maxConnections"])
    }

    @Test func sandboxEvidenceIsADevelopmentOnlySetting() throws {
        let fixtures = Self.validFile.replacingOccurrences(
            of: "\"database\":", with: "\"development\": {\"sandboxEvidence\": true}, \"database\":")
        #expect(Self.problems(fixtures) == ["development.sandboxEvidence"])
        let development = Self.validFile.replacingOccurrences(
            of: "\"database\":",
            with: "\"development\": {\"allowLoopbackHTTP\": true, \"sandboxEvidence\": true}, \"database\":")
        #expect(try Self.load(development).usesSandboxEvidence)
        #expect(try !Self.load(Self.validFile).usesSandboxEvidence)
    }

    @Test func notJSONIsRefused() {
        #expect(Self.problems("{ nope") == ["(file)"])
        #expect(Self.problems("[]") == ["(file)"])
    }
}

extension BackendConfiguration {
    fileprivate var privueWebhookSecretBytes: Int { privue.webhookSecret.count }
}

/// A configuration file that is not JSON is reported with the line and column where it stops being JSON.
@Suite("Configuration JSON syntax")
struct ConfigurationJSONSyntaxTests {
    @Test(arguments: [
        ("{\n  \"server\": {},\n  // a comment pasted from the docs\n}", 3, 3, "comments are not allowed"),
        ("{\n  \"a\": 1,\n}", 3, 1, "no comma after the last member"),
        ("{\"a\": [1, 2,]}", 1, 13, "no comma is allowed after the last element"),
        ("{\"a\": 1", 1, 8, "the file ends early"),
        ("{\n\n  \"é\" 1}", 3, 7, "expected ':'"),
        ("{\"a\": 'x'}", 1, 7, "expected a value"),
        ("{\"a\": tru}", 1, 10, "expected true"),
        ("{} {}", 1, 4, "unexpected text after the end"),
    ])
    func theFirstSyntaxErrorIsFoundAtItsLineAndColumn(text: String, line: Int, column: Int, problem: String) {
        let failure = Self.syntaxError(text)
        #expect(failure?.line == line)
        #expect(failure?.column == column)
        #expect(failure?.problem.contains(problem) == true, "\(String(describing: failure))")
    }

    @Test(arguments: ["{}", " {\"a\": [1, -2.5e+3, true, false, null, \"\\u00e9\\n\"], \"b\": {}} \n", "[]"])
    func validJSONHasNoSyntaxError(text: String) {
        #expect(Self.syntaxError(text) == nil)
    }

    /// What Foundation's decoder refused without saying where (so the file was "not valid JSON" with no position),
    /// or accepted silently (a repeated setting, the last one winning), is named at its line and column.
    @Test(arguments: [
        (
            "{\n  \"server\": {\"port\": 8080},\n  \"server\": {\"port\": 9090}\n}", 3, 3,
            "the member name \"server\" appears twice in one object"
        ),
        ("{\"a\": 012}", 1, 7, "a number cannot start with 0 unless it is 0"),
        ("{\"a\": 1e400}", 1, 7, "the number is too large"),
        ("{\"a\": \"\\ud800\"}", 1, 14, "a \\u surrogate must be followed by its pair"),
        // U+00FF stands for the lone byte 0xFF, which no Swift string holds.
        ("{\"a\": \"\u{FF}\"}", 1, 10, "a string is not valid UTF-8"),
    ])
    func whatFoundationRefusedWithoutAPlaceIsNamed(text: String, line: Int, column: Int, problem: String) throws {
        let bytes = text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        #expect {
            try BackendConfiguration.load(json: Data(bytes), environment: BackendConfigurationTests.environment)
        } throws: { error in
            (error as? ConfigurationErrors)?.errors
                == [
                    ConfigurationError(
                        field: "(file)", problem: "is not valid JSON at line \(line), column \(column): \(problem)")
                ]
        }
    }

    static func syntaxError(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try JSONValue.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func loadingAFileWithACommentNamesItsLineAndColumn() {
        let file = Data("{\n  \"server\": {\"publicOrigin\": \"https://a.example\"}, // here\n}".utf8)
        #expect {
            try BackendConfiguration.load(json: file, environment: TestConfiguration.environment)
        } throws: { error in
            (error as? ConfigurationErrors)?.errors
                == [
                    ConfigurationError(
                        field: "(file)",
                        problem: "is not valid JSON at line 2, column 52: comments are not allowed in JSON: remove them"
                    )
                ]
        }
    }
}
