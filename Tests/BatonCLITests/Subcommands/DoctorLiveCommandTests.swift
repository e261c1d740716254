import Foundation
import Testing

/// `baton doctor --live` as the built binary: its options, and that it asks only the address it was given. The checks
/// against a real https deployment run in `scripts/suites/doctor-live` (a throwaway openssl CA on 127.0.0.1).
@Suite("baton doctor --live")
struct DoctorLiveCommandTests {
    func run(_ arguments: [String]) async throws -> BatonBinary.Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(DoctorCommandTests.good.utf8).write(to: directory.appendingPathComponent("baton.json"))
        return try await BatonBinary.run(
            ["doctor", "--timeout", "2"] + arguments, in: directory, environment: DoctorCommandTests.environment)
    }

    @Test(arguments: [
        ["--live", "http://127.0.0.1:9"], ["--live", "https://127.0.0.1:9/path"], ["--ca-file", "ca.pem"],
    ])
    func anUnusableOptionIsAUsageError(arguments: [String]) async throws {
        let result = try await run(arguments)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(!result.standardError.isEmpty)
    }

    /// Nothing listens on 127.0.0.1:9: every host is asked there (not through DNS) and each file is one `fail` line.
    @Test func eachHostIsAskedAtTheGivenAddressAndAnUnreachableOneFails() async throws {
        let result = try await run(["--live", "https://127.0.0.1:9"])
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.filter { $0.hasPrefix("fail live ") } == [
                "fail live https://app.example.com/.well-known/apple-app-site-association: could not be fetched "
                    + "(connectFailed)"
            ])
    }
}
