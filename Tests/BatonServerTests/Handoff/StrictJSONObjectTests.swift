import Testing

@testable import BatonServer

@Suite("StrictJSONObject: flat request bodies read by RFC 8259, strictly")
struct StrictJSONObjectTests {
    private func read(_ json: String, keys: Set<String> = ["a", "b"]) -> StrictJSONObject? {
        StrictJSONObject(Array(json.utf8), keys: keys)
    }

    @Test func readsStringsAndBooleans() throws {
        let object = try #require(read(#"{"a":"x","b":true}"#))
        #expect(object.string("a") == "x")
        #expect(object.isTrue("b"))
        #expect(object.string("b") == nil)
        #expect(!object.isTrue("a"))
    }

    @Test(arguments: [
        " \n{ \"a\" : \"x\" ,\t\"b\":true }\r\n", #"{"b":true,"a":"x"}"#, #"{"\u0061":"x","b":true}"#,
        #"{"a":"x","b":false}"#, #"{"a":"x","b":null}"#,
    ])
    func acceptsWhitespaceAnyOrderEscapedNamesAndLiterals(json: String) throws {
        #expect(try #require(read(json)).string("a") == "x")
    }

    @Test func unescapesEveryEscape() throws {
        let json = #"{"a":"\"\\\/\b\f\n\r\t\u00e9\u00E9\ud83d\ude00\u0000","b":true}"#
        #expect(try #require(read(json)).string("a") == "\"\\/\u{8}\u{c}\n\r\té\u{e9}😀\u{0}")
    }

    @Test func readsIntegersAsJSONWritesThem() throws {
        let object = try #require(read(#"{"a":-9223372036854775808,"b":0}"#))
        #expect(object.integer("a") == .min)
        #expect(object.integer("b") == 0)
        #expect(object.string("a") == nil)
        #expect(try #require(read(#"{"a":9223372036854775807,"b":-0}"#)).integer("a") == .max)
        // A number where a string is expected is a member of the wrong kind: the caller refuses it.
        #expect(try #require(read(#"{"a":1,"b":true}"#)).string("a") == nil)
    }

    @Test func keepsRawUTF8() throws {
        #expect(try #require(read(#"{"a":"día 😀","b":true}"#)).string("a") == "día 😀")
    }

    @Test(
        "refused",
        arguments: [
            // a name twice, also after unescaping
            #"{"a":"x","a":"y","b":true}"#, #"{"a":"x","\u0061":"y","b":true}"#,
            // values no body or token holds
            #"{"a":{"c":"d"},"b":true}"#, #"{"a":["x"],"b":true}"#, #"{"a":1.5,"b":true}"#, #"{"a":1e3,"b":true}"#,
            #"{"a":1E3,"b":true}"#, #"{"a":01,"b":true}"#, #"{"a":-,"b":true}"#, #"{"a":+1,"b":true}"#,
            #"{"a":--1,"b":true}"#, #"{"a":9223372036854775808,"b":true}"#, #"{"a":0x10,"b":true}"#,
            // strings: lone or broken surrogates, bad escapes, raw control characters, unterminated
            #"{"a":"\ud83d","b":true}"#, #"{"a":"\ude00","b":true}"#, #"{"a":"\ud83d\u0041","b":true}"#,
            #"{"a":"\x","b":true}"#, #"{"a":"\u12","b":true}"#, #"{"a":"\u12g4","b":true}"#,
            "{\"a\":\"x\ny\",\"b\":true}", "{\"a\":\"x\ty\",\"b\":true}", #"{"a":"x,"b":true}"#,
            // structure
            "", " ", "{}", "[]", #""a""#, "null", #"{"a":"x","b":true} x"#, #"{"a":"x","b":true}{}"#,
            #"{"a":"x","b":true,}"#, #"{"a" "x","b":true}"#, #"{'a':'x','b':true}"#, #"{"a":"x" "b":true}"#,
            #"{"a":"x","b":TRUE}"#, #"{"a":"x","b":tru}"#, #"{"a":"x","b":true"#, #"{"a":"x";"b":true}"#,
            "\u{FEFF}{\"a\":\"x\",\"b\":true}",
            // names: not exactly the keys
            #"{"a":"x"}"#, #"{"a":"x","b":true,"c":null}"#, #"{"a":"x","B":true}"#,
        ])
    func refused(json: String) {
        #expect(read(json) == nil)
    }

    @Test func refusesInvalidUTF8() {
        let bytes = Array(#"{"a":""#.utf8) + [0xFF, 0xFE] + Array(#"","b":true}"#.utf8)
        #expect(StrictJSONObject(bytes, keys: ["a", "b"]) == nil)
        let overlong = Array(#"{"a":""#.utf8) + [0xC0, 0xAF] + Array(#"","b":true}"#.utf8)
        #expect(StrictJSONObject(overlong, keys: ["a", "b"]) == nil)
    }

    @Test func refusesBodiesOver16KiB() {
        let padding = String(repeating: " ", count: 16 * 1024)
        #expect(read(#"{"a":"x","b":true}"#) != nil)
        #expect(read(#"{"a":"x","b":true}"# + padding) == nil)
    }
}
