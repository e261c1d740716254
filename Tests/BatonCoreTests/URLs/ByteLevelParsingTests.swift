import BatonTestSupport
import Testing

@testable import BatonCore

/// The byte-level fast paths answer exactly as the straightforward code they replace, on random input built from
/// URL delimiters, escapes, case variants and a few non-ASCII characters (KELVIN SIGN and GREEK QUESTION MARK are
/// canonically equivalent to `K` and `;`, so they exercise the string-comparison fallbacks).
@Suite struct ByteLevelParsingTests {
    static let pieces = [
        "https", "HTTPS", "http", "acmewallet", "ws", "x+y", "1a", ":", "//", "/", "?", "#", "@", "[", "]", "\\", "::1",
        "app.example.com", "APP.Example.COM", "a;b", "a\u{37E}b", "\u{212A}", "é", "e\u{301}", ":443", ":80", ":65535",
        ":65536", ":0443", ":", "bb-callback", "", "&", "=", "+", "%", "%2", "%41", "%C3", "%E2%84%AA", "sessionId",
        "session%49d", "resultCode", "Ok", "error", "a", " ",
    ]

    static func randomText(_ rng: inout SeededGenerator, prefix: String = "") -> String {
        var text = prefix
        for _ in 0..<Int.random(in: 0...12, using: &rng) { text += pieces.randomElement(using: &rng)! }
        return text
    }

    @Test func byteSplitEqualsCharacterSplit() async {
        var rng = SeededGenerator(seed: 11)
        let prefixes = ["", "https://", "HTTPS://app.example.com", "acmewallet://", "https://[::1]"]
        await cooperativeLoop(20_000) { _ in
            let text = Self.randomText(&rng, prefix: prefixes.randomElement(using: &rng)!)
            let characterSplit =
                text.utf8.contains { $0 <= 0x20 || $0 == 0x7F } ? nil : RawURLComponents(characterSplitting: text)
            #expect(RawURLComponents(text) == characterSplit, "\(text)")
        }
    }

    @Test func firstFieldLookupEqualsFullParse() async {
        var rng = SeededGenerator(seed: 12)
        let names = ["sessionId", "resultCode", "a", "", "a;b", "\u{212A}", "K", "é"]
        await cooperativeLoop(20_000) { _ in
            let query = Self.randomText(&rng)
            let parsed = FormURLEncodedQuery(parsing: query)
            for name in names {
                #expect(FormURLEncodedQuery.first(name, in: query[...]) == parsed.first(name), "\(query) \(name)")
            }
        }
    }

    @Test func registeredMatchingEqualsNormalisedComparison() async throws {
        var rng = SeededGenerator(seed: 13)
        let registered = try [
            "https://app.example.com/cb", "acmewallet://bb-callback", "https://a;b", "ws://\u{212A}/",
        ]
        .map { try RegisteredReturnURL($0) }
        try await cooperativeLoop(20_000) { _ in
            let text = Self.randomText(
                &rng, prefix: ["https://", "acmewallet://", "ws://"].randomElement(using: &rng)!)
            guard let candidate = RawURLComponents(text) else { return }
            for url in registered {
                let parts = try #require(RawURLComponents(url.string))
                let expected =
                    candidate.userinfo == nil && candidate.normalizedScheme == parts.normalizedScheme
                    && candidate.normalizedHost == parts.normalizedHost
                    && candidate.effectivePort == parts.effectivePort
                    && candidate.effectivePath == String(parts.effectivePath)
                #expect(url.matches(candidate) == expected, "\(text) \(url)")
            }
        }
    }

    @Test func genericHostMatchingEqualsNormalisedComparison() async throws {
        var rng = SeededGenerator(seed: 14)
        let parsers = try ["Partner.Example", "a;b", "\u{212A}", "[::1]"].map {
            try GenericReturnParser(registeredHost: $0)
        }
        try await cooperativeLoop(20_000) { _ in
            let text = Self.randomText(&rng, prefix: ["https://", "HTTPS://", "http://"].randomElement(using: &rng)!)
            guard let parts = RawURLComponents(text) else { return }
            for parser in parsers {
                let expected =
                    parts.normalizedScheme == "https" && parts.userinfo == nil
                    && parts.normalizedHost == parser.registeredHost && parts.effectivePort == 443
                #expect((parser.parse(text).accepted != nil) == expected, "\(text) \(parser.registeredHost)")
            }
        }
    }
}
