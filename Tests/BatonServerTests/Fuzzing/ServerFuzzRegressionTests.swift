import Foundation
import Testing

@testable import BatonServerFuzzing

/// Replays, through its server reader, every input `make fuzz` kept in `Conformance/fuzz-regressions/<entry>/`, and a
/// few hostile shapes through every reader; each must answer without trapping (a trap ends the test process).
@Suite struct ServerFuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// (entry, file name, bytes) for every kept input.
    static func kept() throws -> [(UntrustedInputFuzzing.Entry, String, [UInt8])] {
        var inputs: [(UntrustedInputFuzzing.Entry, String, [UInt8])] = []
        for entry in UntrustedInputFuzzing.Entry.allCases {
            let folder = root.appendingPathComponent("Conformance/fuzz-regressions/\(entry.rawValue)")
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in files.sorted() where name != "README.md" {
                inputs.append((entry, name, Array(try Data(contentsOf: folder.appendingPathComponent(name)))))
            }
        }
        return inputs
    }

    static let hostile: [[UInt8]] = [
        [], Array(String(repeating: "{", count: 5000).utf8), Array(#"{"a":"\ud800"}"#.utf8), [0xFF, 0xFE, 0x00, 0x0A],
        Array("\n\n\n".utf8), Array("msg_1\n99999999999999999999\nv1,\n{}".utf8),
        Array(("/" + String(repeating: "%", count: 3000) + "?" + String(repeating: "&=", count: 1000)).utf8),
        [0x01] + Array(#"{"url":"https://x/h/phs_1","expiresAt":"9999-99-99T99:99:99Z"}"#.utf8),
        [0x00] + Array(#"{"id":"","status":"","updated_at":"","journey_url":"javascript:x"}"#.utf8),
        Array(#"{"server":{"port":99999999999999999999},"chia":[],"bb":{"returnURLs":{"https":1}}}"#.utf8),
        Array("bt1.\u{0}.\u{0}".utf8), Array("\u{0}".utf8),
    ]

    @Test(arguments: try kept().map { "\($0.0.rawValue)/\($0.1)" })
    func keptInputsAnswerWithoutTrapping(_ name: String) async throws {
        let input = try #require(try Self.kept().first { "\($0.0.rawValue)/\($0.1)" == name })
        await UntrustedInputFuzzing.run(input.0, input.2)
    }

    @Test(arguments: UntrustedInputFuzzing.Entry.allCases)
    func hostileShapesAnswerWithoutTrapping(_ entry: UntrustedInputFuzzing.Entry) async {
        for input in Self.hostile { await UntrustedInputFuzzing.run(entry, input) }
    }

    @Test func aTokenMintedForAnyUserReadsBack() {
        // Control characters ("line\nbreak", DEL) are refused as user ids by design, so not minted for.
        for user in ["alice", "a/b", #"q"uote"#, "\u{1F600}", "\\", "line\nbreak", "\u{7F}", "\u{2028}"] {
            UntrustedInputFuzzing.token(Array(user.utf8))
        }
    }
}
