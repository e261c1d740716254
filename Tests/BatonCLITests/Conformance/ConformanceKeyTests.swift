import Testing

@testable import BatonCLI

/// The renderer run's keys are made from bytes, not parsed and force-unwrapped: they must still read as they did
/// (`3f2504e0-4f89-41d3-9a0c-` and a 12-digit hex counter), each a valid key and each distinct.
@Suite struct ConformanceKeyTests {
    @Test(arguments: [
        (1, "3f2504e0-4f89-41d3-9a0c-000000000001"), (0x2a, "3f2504e0-4f89-41d3-9a0c-00000000002a"),
        (0xABCDEF012345, "3f2504e0-4f89-41d3-9a0c-abcdef012345"),
    ])
    func keysCountInTheLastGroup(number: Int, expected: String) {
        #expect(RendererInteractionRun.conformanceKey(number).rawValue == expected)
    }

    @Test func aRunsKeysAreDistinct() {
        let keys = (1...300).map(RendererInteractionRun.conformanceKey)
        #expect(Set(keys).count == keys.count)
    }
}
