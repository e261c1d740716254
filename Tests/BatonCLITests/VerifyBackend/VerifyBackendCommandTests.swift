import Foundation
import Testing

/// `baton verify-backend`'s command line, tested by running the built binary.
@Suite("baton verify-backend command line")
struct VerifyBackendCommandTests {
    @Test(arguments: [
        ([], "--backend"),
        (["--backend", "ftp://x"], "--backend"),
        (["--backend", "http://127.0.0.1:1"], "--sandbox"),
        (["--backend", "http://127.0.0.1:1", "--sandbox", "http://127.0.0.1:2"], "--token"),
        (["--backend", "http://127.0.0.1:1", "--sandbox", "http://127.0.0.1:2", "--token-command", "x"], "{user}"),
        (["--backend", "http://127.0.0.1:1", "--sandbox", "http://127.0.0.1:2", "--token", "a"], "USER=TOKEN"),
        (
            [
                "--backend", "http://127.0.0.1:1", "--sandbox", "http://127.0.0.1:2", "--token", "a=b", "--flows",
                "chia,x",
            ],
            "--flows"
        ),
        (
            [
                "--backend", "http://127.0.0.1:1", "--sandbox", "http://127.0.0.1:2", "--token", "a=b",
                "--token-command", "t {user}",
            ], "not both"
        ),
    ])
    func aBadOptionIsAUsageErrorNamingIt(arguments: [String], named: String) async throws {
        let result = try await BatonBinary.run(["verify-backend"] + arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains(named), "stderr: \(result.standardError)")
    }

    @Test func helpListsEveryOption() async throws {
        let result = try await BatonBinary.run(["verify-backend", "--help"])
        #expect(result.status == 0)
        for option in ["--backend", "--sandbox", "--token-command", "--token", "--flows", "--json"] {
            #expect(result.standardOutput.contains(option))
        }
    }

    @Test func noSandboxExitsOneWithTheClosingLine() async throws {
        let result = try await BatonBinary.run([
            "verify-backend", "--backend", "http://127.0.0.1:9", "--sandbox", "http://127.0.0.1:9", "--token", "a=b",
        ])
        #expect(result.status == 1)
        #expect(result.standardOutput.hasSuffix("0 passed, 1 failed\n"), "stdout: \(result.standardOutput)")
        #expect(result.standardOutput.contains("sandbox.reachable"))
    }

    @Test func jsonIsOneObjectWithTheCounts() async throws {
        let result = try await BatonBinary.run([
            "verify-backend", "--json", "--backend", "http://127.0.0.1:9", "--sandbox", "http://127.0.0.1:9",
            "--token", "a=b",
        ])
        #expect(result.status == 1)
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(json?["failed"] as? Int == 1)
        #expect(json?["passed"] as? Int == 0)
        #expect((json?["checks"] as? [[String: Any]])?.first?["id"] as? String == "sandbox.reachable")
    }
}
