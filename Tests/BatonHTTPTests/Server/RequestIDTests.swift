import BatonHTTP
import Testing

@Suite("Request ids")
struct RequestIDTests {
    @Test func idsAreARandomPrefixAndAZeroPaddedHexCounter() {
        let generator = RequestIDGenerator()
        let ids = (0..<300).map { _ in generator.next() }
        let prefix = String(ids[0].prefix(7))
        #expect(prefix.last == "-")
        for (index, id) in ids.enumerated() {
            let hex = String(index + 1, radix: 16)
            let padding = String(repeating: "0", count: 8 - hex.count)
            #expect(id == prefix + padding + hex)
        }
    }

    @Test func aCounterPastEightDigitsGrowsInsteadOfWrapping() {
        let generator = RequestIDGenerator(startingAfter: 0xFFFF_FFFF)
        let id = generator.next()
        #expect(id.dropFirst(7) == "100000000")
        #expect(id.utf8.count == 16)
    }

    @Test func generatorsDrawDifferentPrefixes() {
        let prefixes = Set((0..<20).map { _ in RequestIDGenerator().next().prefix(6) })
        #expect(prefixes.count > 1)
    }
}
