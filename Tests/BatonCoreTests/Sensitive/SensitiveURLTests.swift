import Foundation
import Testing

@testable import BatonCore

@Suite struct SensitiveURLTests {
    static let journey = "https://verify.privue.ai/acme/merchant-onboarding#ticket=2nR9v6QpKZ8mLxT4bYw1dJhSaEfG7uNc"
    let url = SensitiveURL(Self.journey)!

    private func leaks(_ text: String) -> Bool {
        text.contains("ticket") || text.contains("2nR9v6") || text.contains("merchant-onboarding")
    }

    @Test func keepsTheStringByteForByteFragmentIncluded() {
        let odd = "https://chia.example/h/phs_a%2Fb+c?x=%41&y#frag%20ment=%ZZ"
        #expect(SensitiveURL(odd)?.revealForPresentation() == odd)
        #expect(url.revealForPresentation() == Self.journey)
    }

    @Test func descriptionDebugDescriptionAndInterpolationAreRedacted() {
        #expect(url.description == "https://verify.privue.ai/…")
        #expect(!leaks(url.description))
        #expect(!leaks(url.debugDescription))
        #expect(!leaks("\(url)"))
        #expect(!leaks(String(describing: url)))
        #expect(!leaks(String(reflecting: url)))
        #expect(!leaks("\([url])"))
        #expect(!leaks("\(Optional(url) as Any)"))
    }

    @Test func dumpAndMirrorAreRedacted() {
        var output = ""
        dump(url, to: &output)
        #expect(!leaks(output))
        #expect(output.contains("verify.privue.ai"))
        #expect(!Mirror(reflecting: url).children.contains { leaks("\($0.value)") })
    }

    @Test func anErrorCarryingItIsRedacted() {
        struct OpenFailed: Error, CustomStringConvertible {
            let url: SensitiveURL
            var description: String { "could not open \(url)" }
        }
        let error: any Error = OpenFailed(url: url)
        #expect(!leaks("\(error)"))
        #expect(!leaks(String(reflecting: error)))
        #expect(!leaks(error.localizedDescription))
    }

    @Test func decodesFromAJSONStringAndRejectsNonHTTPS() throws {
        let decoded = try JSONDecoder().decode([SensitiveURL].self, from: JSONEncoder().encode([Self.journey]))
        #expect(decoded.first?.revealForPresentation() == Self.journey)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([SensitiveURL].self, from: Data(#"["http://x.example/"]"#.utf8))
        }
        #expect(SensitiveURL("https://user@x.example/") == nil)
        #expect(SensitiveURL("acmewallet://cb", allowingSchemes: ["acmewallet"]) != nil)
    }
}

@Suite struct SecretTests {
    let secret = Secret("sk_live_abcdef123456")

    @Test func neverPrintsItsValue() {
        var dumped = ""
        dump(secret, to: &dumped)
        for text in [
            secret.description, secret.debugDescription, "\(secret)", String(reflecting: secret), dumped,
            "\([secret])", "\(Optional(secret) as Any)",
        ] {
            #expect(!text.contains("abcdef"))
        }
        #expect(Mirror(reflecting: secret).children.isEmpty)
    }

    @Test func revealsOnlyThroughExplicitCalls() {
        #expect(secret.revealForUse() == "sk_live_abcdef123456")
        #expect(secret.withBytes { $0.count } == 20)
        #expect(secret == Secret("sk_live_abcdef123456"))
        #expect(secret != Secret("sk_live_abcdef123457"))
        #expect(secret != Secret("sk_live"))
    }

    /// The byte search finds the same `://` the generic `firstRange(of:)` did.
    @Test(arguments: [
        "https://h/p", "", ":", "://", ":///", "a:/", "a:/b://c", "::://x", "x:/:/y://z", "https:/", "https:/x//y",
        "ab:c://d://e", "é://h", "https://[::1]:8080/", "no separator here", "trailing:/", "trailing:",
    ])
    func theSchemeSeparatorIsFoundWhereFirstRangeFoundIt(text: String) {
        #expect(SensitiveURL.indexAfterSchemeSeparator(text.utf8) == text.utf8.firstRange(of: "://".utf8)?.upperBound)
    }
}
