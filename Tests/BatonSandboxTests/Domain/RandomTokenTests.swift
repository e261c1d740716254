import Testing

@testable import BatonSandbox

@Suite struct RandomTokenTests {
    @Test(arguments: [0, 1, 24, 32])
    func aTokenIsThePrefixAndThatManyBase62Characters(length: Int) {
        let token = RandomToken.make("phs_", length: length)
        #expect(token.hasPrefix("phs_"))
        #expect(token.utf8.count == 4 + length)
        #expect(token.dropFirst(4).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    @Test func everyCharacterIsDrawnAndTokensDiffer() {
        let drawn = Set((0..<200).flatMap { _ in RandomToken.base62(32) })
        #expect(drawn.count == 62)
        #expect(Set((0..<100).map { _ in RandomToken.make("cs_") }).count == 100)
    }
}
