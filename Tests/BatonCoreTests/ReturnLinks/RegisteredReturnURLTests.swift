import Testing

@testable import BatonCore

@Suite struct RegisteredReturnURLTests {
    /// The loader's stand-in is made from parts, without a parse that could fail: it must equal what parsing its text
    /// gives, field for field, or the two ways of making a registered URL have drifted apart.
    @Test func theInvalidStandInIsWhatRegisteringItsTextGives() throws {
        #expect(RegisteredReturnURL.invalid == (try RegisteredReturnURL("https://invalid.invalid/")))
        #expect(RegisteredReturnURL.invalid.isHTTPS)
        let candidate = try #require(RawURLComponents("https://INVALID.invalid:443"))
        #expect(RegisteredReturnURL.invalid.matches(candidate))
    }
}
