import Foundation
import Testing

/// `baton demo --once`, run as a new user would: the built binary in an empty folder.
@Suite("baton demo")
struct DemoCommandTests {
    @Test func walksEveryJourneyAndPrintsNoSecret() async throws {
        let directory = try ServeCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A port found free can be taken by a parallel test before the demo binds it: then try another.
        var result = try await BatonBinary.run(
            ["demo", "--once", "--port", String(ServeCommandTests.freePortRun())], in: directory)
        for _ in 0..<4 where result.status != 0 && result.standardError.contains("cannot listen") {
            result = try await BatonBinary.run(
                ["demo", "--once", "--port", String(ServeCommandTests.freePortRun())], in: directory)
        }
        #expect(result.status == 0, "stderr: \(result.standardError.prefix(500))")
        let output = result.standardOutput
        #expect(output.contains("9/9 journeys ended as expected"))
        // The expired-ticket journey moves the sandbox clock forward; the walk puts it back before serving on.
        #expect(!output.contains("sandbox clock is left"))
        #expect(output.components(separatedBy: "✓ ended as expected").count - 1 == 9)
        for line in [
            "tap      Share selection and continue", "[chia-journey] → handed to the system browser",
            "[chia-neutral]", "1 share request, 1 journey opened", "the retry reused the same Idempotency-Key",
            "signed in with the handoff ticket", "ticket refused (ticket_expired)", "outcome  connected",
            "closed without a return",
        ] {
            #expect(output.contains(line), "missing: \(line)")
        }
        // No journey URL, ticket or idempotency key in anything printed.
        let everything = output + result.standardError
        for secret in ["/h/phs_", "phs_", "#ticket", "ticket=", "/connect/cs_", "cs_"] {
            #expect(!everything.contains(secret), "printed: \(secret)")
        }
        let uuid = try Regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
        #expect(everything.firstMatch(of: uuid) == nil)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".baton/baton.sqlite").path))
    }
}
