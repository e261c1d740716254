import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The shipped example configurations pass `baton doctor`, and a separately started `baton sandbox` keeps its keys
/// across restarts and writes them as an env file that `examples/baton-with-sandbox.json` loads with.
@Suite("Example configurations")
struct ExampleConfigurationTests {
    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-example-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func example(_ name: String) -> String {
        BatonBinary.repositoryRoot.appendingPathComponent("examples/\(name)").path
    }

    /// The failing lines of a doctor run, without their fix lines.
    static func failures(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("fail ") }
    }

    @Test func theProductionExamplePassesTheDoctor() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await BatonBinary.run(
            ["doctor", "--offline", "--config", Self.example("baton.json")], in: folder,
            environment: DoctorCommandTests.environment)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(Self.failures(result.standardOutput).isEmpty)
        #expect(result.standardOutput.contains("ok database: sqlite:.baton/baton.sqlite: the folder .baton is created"))
    }

    @Test func thePostgresExamplePassesTheDoctor() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await BatonBinary.run(
            ["doctor", "--offline", "--config", Self.example("baton-postgres.json")], in: folder,
            environment: DoctorCommandTests.environment)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("ok database: sslmode=verify-full"), "\(result.standardOutput)")
    }

    /// The production example pointed at PostgreSQL: without `sslmode=verify-full` the doctor fails and says what to
    /// set; with it (and the root named) there is nothing to fix.
    @Test(arguments: [
        ("postgres://baton@db.example.internal:5432/baton", true),
        ("postgres://baton@db.example.internal:5432/baton?sslmode=require", true),
        (
            "postgres://baton@db.example.internal:5432/baton?sslmode=verify-full&sslrootcert=/etc/baton/pg-root.crt",
            false
        ),
    ])
    func theProductionExampleOnPostgresNeedsAnAuthenticatedLink(database: String, fails: Bool) async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let example = try String(contentsOfFile: Self.example("baton.json"), encoding: .utf8)
        #expect(example.contains(#""database": "sqlite:.baton/baton.sqlite""#))
        let file = folder.appendingPathComponent("baton.json")
        try example.replacingOccurrences(of: "sqlite:.baton/baton.sqlite", with: database)
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try await BatonBinary.run(
            ["doctor", "--offline", "--config", file.path], in: folder, environment: DoctorCommandTests.environment)
        let output = result.standardOutput
        if fails {
            #expect(result.status == 1, "\(output)")
            #expect(Self.failures(output).count == 1, "\(output)")
            #expect(Self.failures(output).first?.hasPrefix("fail database: sslmode=") == true, "\(output)")
            #expect(output.contains("fix: add ?sslmode=verify-full&sslrootcert="), "\(output)")
        } else {
            #expect(result.status == 0, "\(output)")
            #expect(output.contains("ok database: sslmode=verify-full"), "\(output)")
        }
    }

    /// Starts `baton sandbox` in `folder` with an env file, reads its JSON line, and stops it.
    static func runSandbox(in folder: URL, envFile: String) async throws -> [String: [String: String]] {
        try await offCooperativePool {
            var guide: [String: [String: String]] = [:]
            for _ in 0..<5 where guide.isEmpty {
                let port = Int.random(in: 20_000...50_000)
                let process = try ChildProcess(
                    BatonBinary.executable, ["sandbox", "--port", String(port), "--env-file", envFile, "--json"],
                    in: folder)
                defer {
                    process.send(SIGINT)
                    _ = process.waitForExit()
                }
                guard process.waitForOutput(timeout: 20, until: { $0.contains("\n") }) else { continue }
                let line = Data(process.standardOutput.prefix { $0 != "\n" }.utf8)
                let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] ?? [:]
                guide = object.compactMapValues { ($0 as? [String: Any])?.compactMapValues { $0 as? String } }
            }
            return guide
        }
    }

    @Test func aSeparateSandboxKeepsItsKeysAndItsEnvFileConfiguresTheSandboxExample() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let envFile = folder.appendingPathComponent("baton.env").path
        let first = try await Self.runSandbox(in: folder, envFile: envFile)
        let second = try await Self.runSandbox(in: folder, envFile: envFile)
        #expect(first["bb"]?["apiKey"] != nil)
        for provider in ["chia", "privue", "bb"] {
            #expect(first[provider]?["apiKey"] == second[provider]?["apiKey"], "\(provider)")
        }
        #expect(first["bb"]?["webhookSecret"] == second["bb"]?["webhookSecret"])

        let attributes = try FileManager.default.attributesOfItem(atPath: envFile)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        var environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        for line in try String(contentsOfFile: envFile, encoding: .utf8).split(separator: "\n")
        where !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1)
            environment[String(parts[0])] = String(parts[1].dropFirst().dropLast())
        }
        #expect(
            Set(environment.keys) == [
                "PATH", "BATON_TOKEN_SIGNING_KEY", "BATON_SEALING_KEY", "BATON_IDEMPOTENCY_SECRET",
                "BATON_CHIA_API_KEY",
                "BATON_PRIVUE_API_KEY", "BATON_PRIVUE_WEBHOOK_SECRET", "BATON_BB_API_KEY", "BATON_BB_CLIENT_ID",
                "BATON_BB_WEBHOOK_SECRET",
            ])
        #expect(environment["BATON_BB_API_KEY"] == second["bb"]?["apiKey"])
        #expect(environment["BATON_PRIVUE_WEBHOOK_SECRET"] == second["privue"]?["webhookSecret"])

        let result = try await BatonBinary.run(
            ["doctor", "--offline", "--config", Self.example("baton-with-sandbox.json")], in: folder,
            environment: environment)
        #expect(result.standardOutput.contains("ok (file): loads"), "\(result.standardOutput)")
        // Only the development switches this example needs may be refused (never in production).
        #expect(Self.failures(result.standardOutput).allSatisfy { $0.hasPrefix("fail development.") })
    }
}
