import BatonTestSupport
import Foundation
import Testing

@testable import BatonCore

/// Replays every input kept in `Conformance/fuzz-regressions/` plus a few hostile shapes through the entry points the
/// fuzzer covers; each must answer without trapping.
@Suite struct FuzzRegressionTests {
    static func inputs() throws -> [Data] {
        let folder = VectorFile.repositoryRoot.appendingPathComponent("Conformance/fuzz-regressions")
        let kept = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent != "README.md" }
            // Server readers keep theirs in subfolders (ServerFuzzRegressionTests replays those).
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .map { try Data(contentsOf: $0) }
        let hostile = [
            String(repeating: "%", count: 5000), "https://" + String(repeating: "[", count: 100), "https://:@:/?#",
            "a://[]", "https://h?" + String(repeating: "&=", count: 2000), "\u{0}\u{FFFF}https://x",
        ]
        return kept + hostile.map { Data($0.utf8) } + [Data([0xFF, 0xFE, 0x25, 0x32])]
    }

    @Test(arguments: try inputs())
    func answersWithoutTrapping(_ input: Data) throws {
        let text = String(decoding: input, as: UTF8.self)
        let connect = try ConnectReturnParser(registered: ["https://app.example.com/bb-callback", "acme://cb"])
        #expect(connect.parse(text).accepted == nil || RawURLComponents(text) != nil)
        #expect(
            try VerificationReturnParser(registered: ["https://p.example/done"]).parse(text).accepted == nil
                || text.lowercased().hasPrefix("https:"))
        #expect(
            try GenericReturnParser(registeredHost: "p.example").parse(text).accepted == nil
                || text.contains("p.example"))
        #expect((try? JSONDecoder().decode(MobileHandoff.self, from: input)) == nil || text.contains("mode"))
        #expect((try? JSONDecoder().decode(CatalogCard.self, from: input)) == nil || text.contains("handoff"))
    }
}
