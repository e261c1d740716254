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
        var bytes: [UInt8] = []
        JSONText.appendQuoted(value, to: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
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

    /// Members named by literals (the log lines') are written as those named by strings are.
    @Test func literalNamesWriteWhatStringNamesWrite() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.123)
        let literal = write { json in
            json.field(literal: "ts", timestamp: date, milliseconds: true)
            json.field(literal: "at", timestamp: date)
            json.field(literal: "s", "q\"\u{2028}")
            json.field(literal: "i", -7)
            json.field(literal: "d", 0.25)
            json.field(literal: "n", Double.infinity)
        }
        let named = write { json in
            json.field("ts", "2023-11-14T22:13:20.123Z")
            json.field("at", RFC3339.string(from: date))
            json.field("s", "q\"\u{2028}")
            json.field("i", -7)
            json.field("d", 0.25)
            json.field("n", Double.infinity)
        }
        #expect(literal == named)
        #expect(
            literal == #"{"ts":"2023-11-14T22:13:20.123Z","at":"2023-11-14T22:13:20Z","s":"q\"\u2028","i":-7,"#
                + #""d":0.25,"n":null}"#)
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
