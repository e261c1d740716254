import BatonTestSupport
import Foundation
import Testing

@testable import BatonCore

@Suite struct IdempotencyKeyTests {
    @Test(arguments: [
        "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
        "3F2504E0-4F89-41D3-9A0C-0305E82C3301",
        "00000000-0000-4000-8000-000000000000",
        "ffffffff-ffff-4fff-bfff-ffffffffffff",
        "3f2504e0-4f89-41d3-ab0c-0305e82c3301",
    ])
    func acceptsCanonicalVersion4(_ text: String) {
        #expect(IdempotencyKey(text)?.rawValue == text)
    }

    @Test(arguments: [
        "", "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "3f2504e0-4f89-41d3-7a0c-0305e82c3301",
        "3f2504e0-4f89-41d3-ca0c-0305e82c3301", "3f2504e04f8941d39a0c0305e82c3301",
        "{3f2504e0-4f89-41d3-9a0c-0305e82c3301}", "3f2504e0-4f89-41d3-9a0c-0305e82c330",
        "3f2504e0-4f89-41d3-9a0c-0305e82c33011",
        "3f2504e0_4f89-41d3-9a0c-0305e82c3301", "3g2504e0-4f89-41d3-9a0c-0305e82c3301",
        " 3f2504e0-4f89-41d3-9a0c-0305e82c3301", "3f2504e0-4f89-41d3-9a0c-0305e82c330\u{00E9}",
    ])
    func rejectsEverythingElse(_ text: String) {
        #expect(IdempotencyKey(text) == nil)
    }

    /// A fixed key from a UUID needs no failable parse: the version and variant bits are set, the rest kept.
    @Test(arguments: [
        ("3F2504E0-4F89-41D3-9A0C-0305E82C3301", "3f2504e0-4f89-41d3-9a0c-0305e82c3301"),
        ("00000000-0000-0000-0000-000000000000", "00000000-0000-4000-8000-000000000000"),
        ("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "ffffffff-ffff-4fff-bfff-ffffffffffff"),
    ])
    func aKeyFromAUUIDIsItsVersion4Form(uuid: String, expected: String) throws {
        let key = IdempotencyKey(version4From: try #require(UUID(uuidString: uuid)))
        #expect(key.rawValue == expected)
        #expect(IdempotencyKey(key.rawValue) == key)
    }

    @Test func generatedKeysAreValidVersion4AndDistinct() {
        var generator = SeededGenerator(seed: 42)
        let keys = (0..<1000).map { _ in IdempotencyKey.random(using: &generator) }
        #expect(keys.allSatisfy { IdempotencyKey($0.rawValue) != nil })
        #expect(Set(keys).count == keys.count)
        #expect(keys.allSatisfy { $0.rawValue == $0.rawValue.lowercased() })
        #expect(IdempotencyKey.random() != IdempotencyKey.random())
    }

    @Test func injectedGeneratorIsDeterministic() {
        var first = SeededGenerator(seed: 7)
        var second = SeededGenerator(seed: 7)
        #expect(IdempotencyKey.random(using: &first) == IdempotencyKey.random(using: &second))
    }

    @Test func codableIsTheBareStringAndValidates() throws {
        let key = IdempotencyKey("3f2504e0-4f89-41d3-9a0c-0305e82c3301")!
        let data = try JSONEncoder().encode([key])
        #expect(String(decoding: data, as: UTF8.self) == #"["3f2504e0-4f89-41d3-9a0c-0305e82c3301"]"#)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([IdempotencyKey].self, from: Data(#"["x"]"#.utf8))
        }
    }
}
