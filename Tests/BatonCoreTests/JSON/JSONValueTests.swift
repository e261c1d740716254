import BatonTestSupport
import Foundation
import Testing

@testable import BatonCore

@Suite("JSONValue: the one generic tree, read by the shared reader and written by JSONText")
struct JSONValueTests {
    @Test func readsEveryKindKeepingMemberOrder() throws {
        let value = try JSONValue.parse(
            Array(#" {"z": [1, -2.5e+3, true, false, null, "\u00e9\n\ud83d\ude00"], "a": {}, "m": {"k": []}} "#.utf8))
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["z", "a", "m"])
        #expect(value["z"] == [1, -2500, true, false, .null, "é\n😀"])
        #expect(value["m"]?["k"] == [])
        #expect(value["missing"] == nil)
    }

    @Test func writesCompactlyInOrderWithWholeNumbersWithoutAFraction() {
        let value: JSONValue = ["b": 1, "a": [0.5, 1e15, -3], "c": .optional(nil as String?), "d": "\u{2028}/"]
        #expect(value.rendered == #"{"b":1,"a":[0.5,1000000000000000.0,-3],"c":null,"d":"\u2028/"}"#)
        #expect(value.sortingKeys.rendered == #"{"a":[0.5,1000000000000000.0,-3],"b":1,"c":null,"d":"\u2028/"}"#)
    }

    @Test(arguments: [
        #"{"a":[1,2.25,{"b":null}],"c":"x\"y","d":false}"#, "[]", "0", #""\u0000""#, "-0.125", "[[[]]]",
    ])
    func whatItWritesReadsBackEqual(text: String) throws {
        let value = try JSONValue.parse(Array(text.utf8))
        #expect(try JSONValue.parse(Array(value.rendered.utf8)) == value)
    }

    @Test func objectsCompareAsUnorderedMaps() {
        #expect(JSONValue.object([.init("a", 1), .init("b", 2)]) == ["b": 2, "a": 1])
        #expect(JSONValue.object([.init("a", 1)]) != ["a": 1, "b": 2])
        #expect(Set<JSONValue>([["a": 1, "b": 2], ["b": 2, "a": 1]]).count == 1)
    }

    @Test(arguments: [
        ("[1,]", "no comma is allowed after the last element"), (#"{"a":1,"a":1}"#, "appears twice"),
        ("01", "cannot start with 0"), ("1e999", "too large"), (#""\udc00""#, "surrogate"),
        (String(repeating: "[", count: 513) + String(repeating: "]", count: 513), "nested too deeply"),
    ])
    func refusesWhatIsNotJSON(text: String, problem: String) {
        #expect {
            try JSONValue.parse(Array(text.utf8))
        } throws: { error in
            (error as? JSONSyntaxError)?.problem.contains(problem) == true
        }
    }

    /// A string without escapes is read straight from the input; one with an escape byte by byte. Both readings give
    /// the same text for the same characters, and the same error at the same place.
    @Test func stringsWithAndWithoutEscapesReadAlike() throws {
        var generator = SeededGenerator(seed: 8259)
        let pool = Array("abcXYZ09 ~é€😀\u{7F}\u{85}\u{2028}\u{FFFD}")
        for _ in 0..<2_000 {
            let text = String(
                (0..<Int.random(in: 0..<40, using: &generator)).map { _ in pool.randomElement(using: &generator)! })
            #expect(try JSONValue.parse(Array("\"\(text)\"".utf8)) == .string(text))
            #expect(try JSONValue.parse(Array("\"\(text)\\/\"".utf8)) == .string(text + "/"))
        }
        // Invalid UTF-8, once without an escape and once with one of the same length: the same error, same place.
        let plain: [UInt8] = [0x5B, 0x22, 0xFF, 0x61, 0x62, 0x22, 0x5D]
        let escaped: [UInt8] = [0x5B, 0x22, 0xFF, 0x5C, 0x2F, 0x22, 0x5D]
        var errors: [JSONSyntaxError] = []
        for input in [plain, escaped] {
            let outcome = Result { () throws(JSONSyntaxError) in try JSONValue.parse(input) }
            if case .failure(let error) = outcome { errors.append(error) }
        }
        #expect(errors.count == 2)
        #expect(errors.first == errors.last)
        #expect(errors.first?.problem.contains("UTF-8") == true)
    }
}
