import Foundation
import Testing

@testable import BatonCLI

/// `baton sandbox --clock-offset SECONDS`: the providers' clock runs ahead of (or behind) the host's, so the
/// reliability suite can test a backend and providers whose clocks disagree.
@Suite struct SandboxClockOffsetTests {
    static func configuration(_ arguments: [String]) throws -> Date {
        let parsed = try ParsedArguments.parse(arguments, options: SandboxCommand().options)
        return try SandboxCommand.configuration(from: parsed, base: .generated()).clock.now()
    }

    @Test(arguments: [600, -600, 0])
    func theProvidersClockIsOffset(seconds: Int) throws {
        let before = Date()
        let now = try Self.configuration(["--clock-offset", String(seconds)])
        let offset = now.timeIntervalSince(before)
        #expect(offset >= Double(seconds) && offset < Double(seconds) + 5)
    }

    @Test func withoutTheOptionTheClockIsTheSystems() throws {
        let now = try Self.configuration([])
        #expect(abs(now.timeIntervalSinceNow) < 5)
    }

    @Test(arguments: ["ten", "86401", "-86401", "1.5", ""])
    func invalidOffsetsAreRefused(text: String) {
        #expect(throws: UsageError.self) { try Self.configuration(["--clock-offset", text]) }
    }
}
