import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// `baton doctor --live` reads what a server sent: it prints it only with control characters escaped, and its path
/// matcher has no recursion whose depth a fetched pattern decides.
@Suite("Live well-known check: server text and patterns")
struct LiveWellKnownHardeningTests {
    @Test func aRedirectLocationWithControlCharactersIsPrintedEscaped() async throws {
        var answers = try LiveWellKnownCheckTests.goodAnswers()
        answers["https://open.app.example.com\(LiveWellKnownCheckTests.android)"] = .success(
            OutboundResponse(
                status: 302, headers: ["location": "https://x.example/\u{1B}[2J\u{1B}[31mok\u{202E}txt\u{7F}"]))
        let (findings, _) = await LiveWellKnownCheckTests.run(answers)
        let lines = findings.map(\.description).joined(separator: "\n")
        #expect(!lines.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x7F })
        #expect(lines.contains(#"redirects (HTTP 302 to https://x.example/\u{1B}[2J\u{1B}[31mok\u{202E}txt\u{7F})"#))
    }

    @Test func aContentTypeWithANewlineCannotAddALine() {
        let findings = LiveWellKnownCheck.evaluate(
            host: "h.example", file: "/f",
            fetched: .success(
                OutboundResponse(status: 200, headers: ["content-type": "text/html\rok h.example: fine"], body: [1])),
            content: { _ in [] })
        #expect(findings.count == 1)
        #expect(findings[0].message.contains(#"text/html\u{D}ok"#))
        #expect(!findings[0].description.contains("\r"))
    }

    @Test(arguments: [
        ("/bb-callback", "/bb-callback", true), ("/bb-*", "/bb-callback", true), ("*", "/anything", true),
        ("/kyc/?one", "/kyc/done", true), ("/kyc/?ne", "/kyc/done", false), ("/kyc/do?e", "/kyc/done", true),
        ("*/done", "/kyc/done", true),
        ("/a*b*c", "/axxbyyc", true), ("/a*b*c", "/axxbyy", false), ("", "", true), ("", "/x", false),
        ("**", "", true), ("/x*", "/x", true), ("?", "", false),
    ])
    func applesPatternsMatchAsBefore(pattern: String, path: String, matches: Bool) {
        #expect(LiveWellKnownCheck.matches(pattern, path) == matches)
    }

    /// Patterns as long as the largest file the check reads (128 KiB) answer without a recursion as deep as the
    /// pattern (the matcher this replaced recursed once per character: a stack overflow, not an answer).
    @Test func aHugePatternNeitherRecursesNorHangs() {
        #expect(!LiveWellKnownCheck.matches(String(repeating: "*a", count: 64 * 1024), "/kyc/done"))
        #expect(LiveWellKnownCheck.matches(String(repeating: "*", count: 128 * 1024), "/kyc/done"))
        #expect(LiveWellKnownCheck.matches(String(repeating: "*", count: 64 * 1024) + "/kyc/done", "/kyc/done"))
        #expect(!LiveWellKnownCheck.matches(String(repeating: "?", count: 128 * 1024), "/kyc/done"))
    }
}
