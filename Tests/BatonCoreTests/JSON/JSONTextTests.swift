import Foundation
import Testing

@testable import BatonCore

@Suite("JSONText: the one JSON writer")
struct JSONTextTests {
    private func write(_ build: (inout JSONText) -> Void) -> String {
        var json = JSONText()
        build(&json)
        return json.finish()
    }

    @Test(arguments: [
        ("\u{2028}", #""\u2028""#), ("\u{2029}", #""\u2029""#), ("a\"b", #""a\"b""#), ("a\\b", #""a\\b""#),
        ("\n\r\t", #""\n\r\t""#), ("\u{0}\u{1F}\u{7F}", #""\u0000\u001f\u007f""#), ("é/😀", "\"é/😀\""),
    ])
    func escapesPerRFC8259AndLineSeparators(value: String, expected: String) {
        var text = ""
        JSONText.appendQuoted(value, to: &text)
        #expect(text == expected)
        #expect(!text.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029 })
    }

    @Test func writesMembersInOrderWithNestedObjectsArraysAndNulls() throws {
        let text = write { json in
            json.field("b", "x")
            json.field("a", 1)
            json.field("c", object: { $0.field("d", true) })
            json.field("e", strings: ["f", "g\u{2028}"])
            json.null("h")
            json.field("i", nil as String?)
            json.field("j", Double.nan)
        }
        #expect(text == #"{"b":"x","a":1,"c":{"d":true},"e":["f","g\u2028"],"h":null,"i":null,"j":null}"#)
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    }

    @Test func writesTheEmptyObjectAndArray() {
        #expect(write { _ in } == "{}")
        #expect(write { $0.field("a", strings: []) } == #"{"a":[]}"#)
    }

    @Test func readsBackWhatItWritesThroughTheStrictReader() throws {
        let bytes = Array(
            write { json in
                json.field("s", "q\"\\\u{2028}\u{1}é😀")
                json.field("n", -42)
                json.field("t", true)
                json.null("z")
            }.utf8)
        let object = try #require(StrictJSONObject(bytes, keys: ["s", "n", "t", "z"]))
        #expect(object.string("s") == "q\"\\\u{2028}\u{1}é😀")
        #expect(object.integer("n") == -42)
        #expect(object.isTrue("t"))
        #expect(object.isNull("z"))
    }
}
