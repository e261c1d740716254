import BatonHTTP
import Foundation
import Testing

/// `baton doctor`, run as the built binary on a good and a bad configuration file.
@Suite("baton doctor")
struct DoctorCommandTests {
    static let environment: [String: String] = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        "BATON_TOKEN_SIGNING_KEY": "k7Qm2vX9pL4sT8wZ1cR6yB3nF5hJ0dGa",
        "BATON_SEALING_KEY": Data((0..<32).map { UInt8($0 * 7 + 3) }).base64EncodedString(),
        "BATON_CHIA_API_KEY": "ck_live_4f9a1c2e7b3d8a60",
        "BATON_PRIVUE_API_KEY": "pk_live_91b2c3d4e5f6a7b8",
        "BATON_BB_API_KEY": "bk_live_0a1b2c3d4e5f6789",
        "BATON_BB_CLIENT_ID": "cli_acme",
        "BATON_PRIVUE_WEBHOOK_SECRET": "whsec_" + Data((0..<32).map { UInt8($0) }).base64EncodedString(),
        "BATON_BB_WEBHOOK_SECRET": "whsec_" + Data((0..<32).map { UInt8($0 + 100) }).base64EncodedString(),
    ]

    /// Provider origins on a loopback port nothing listens on: the probe fails at once, without any network.
    static let good = """
        {
          "server": {"publicOrigin": "https://app.example.com"},
          "chia": {"apiOrigin": "https://127.0.0.1:9", "assetOrigin": "https://127.0.0.1:9"},
          "privue": {"apiOrigin": "https://127.0.0.1:9", "returnURL": "https://app.example.com/kyc/done",
                     "workflows": ["merchant-onboarding"]},
          "bb": {"apiOrigin": "https://127.0.0.1:9",
                 "returnURLs": {"https": "https://app.example.com/bb-callback",
                                "customScheme": "acmewallet://bb-callback"}},
          "apps": {"apple": {"appIDs": ["ABCDE12345.com.example.wallet"]}}
        }
        """

    func run(_ configuration: String, environment: [String: String] = environment) async throws -> BatonBinary.Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(configuration.utf8).write(to: directory.appendingPathComponent("baton.json"))
        return try await BatonBinary.run(["doctor", "--timeout", "2"], in: directory, environment: environment)
    }

    @Test func aGoodConfigurationExitsZeroWithOneLinePerCheck() async throws {
        let result = try await run(Self.good)
        #expect(result.status == 0, "\(result.standardOutput)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("ok (file): loads: every field and secret is valid"))
        #expect(lines.contains { $0.hasPrefix("ok /.well-known/apple-app-site-association: ") })
        #expect(lines.contains { $0.hasPrefix("warn chia.apiOrigin: https://127.0.0.1:9 is not reachable") })
        #expect(lines.last?.hasPrefix("doctor: ") == true)
        #expect(lines.last?.hasSuffix(", 0 failed") == true)
        for line in lines.filter({ !$0.hasPrefix("  fix: ") }).dropFirst().dropLast() {
            #expect(line.hasPrefix("ok ") || line.hasPrefix("warn ") || line.hasPrefix("fail "), "\(line)")
        }
    }

    @Test func aBadConfigurationExitsOneNamingEachFieldAndAFixWithoutPrintingSecrets() async throws {
        var environment = Self.environment
        environment["BATON_SEALING_KEY"] = "not-a-key"
        environment["BATON_PRIVUE_WEBHOOK_SECRET"] = nil
        let bad = Self.good.replacingOccurrences(of: "https://app.example.com/kyc/done", with: "acme://kyc/done")
        let result = try await run(bad, environment: environment)
        #expect(result.status == 1)
        let output = result.standardOutput
        #expect(output.contains("fail privue.returnURL: must be an https URL"))
        #expect(output.contains("fail BATON_SEALING_KEY: "))
        #expect(output.contains("fail BATON_PRIVUE_WEBHOOK_SECRET: environment variable is not set"))
        // One value kept in a file or secret store: never a fresh `openssl rand` per shell.
        #expect(output.contains("  fix: generate it ONCE (openssl rand -base64 32), keep it in a 0600 file"))
        #expect(!output.contains("export BATON_SEALING_KEY=\"$(openssl rand"))
        #expect(!output.contains("not-a-key"))
        #expect(!output.contains(Self.environment["BATON_CHIA_API_KEY"]!))
    }

    @Test func aMissingFileIsAnErrorOnStandardError() async throws {
        let result = try await BatonBinary.run(
            ["doctor", "--config", "/nonexistent/baton.json"], environment: Self.environment)
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot read the configuration file"))
    }

    /// libcurl follows `http_proxy`/`https_proxy`/`ALL_PROXY` from the environment unless told otherwise; Baton's
    /// transport names its proxy explicitly (none by default), so the probe goes straight to the origin. The
    /// "proxy" here is a Baton server: reached, it would answer the absolute-form request with a 400.
    @Test func providerCallsIgnoreProxyVariablesInTheEnvironment() async throws {
        let proxy = try HTTPServer.start(responder: { _ in .text("proxied") })
        var environment = Self.environment
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"] {
            environment[name] = "http://127.0.0.1:\(proxy.port)"
        }
        let development = Self.good.replacingOccurrences(of: "https://127.0.0.1:9", with: "http://127.0.0.1:9")
            .replacingOccurrences(of: #""server":"#, with: #""development": {"allowLoopbackHTTP": true}, "server":"#)
        let result: BatonBinary.Result
        do {
            result = try await run(development, environment: environment)
            await proxy.shutdown(grace: .seconds(1))
        } catch {
            await proxy.shutdown(grace: .seconds(1))
            throw error
        }
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let probe = try #require(lines.first { $0.contains(" chia.apiOrigin: ") }, "\(result.standardOutput)")
        #expect(probe.hasPrefix("warn chia.apiOrigin: http://127.0.0.1:9 is not reachable"), "\(probe)")
        #expect(!probe.contains("HTTP 400"))
    }
}
