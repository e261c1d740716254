import BatonTestSupport
import Foundation
import Testing

@testable import BatonCore

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
        // Found by the random-input test: a refused string followed by a digit was read as that number.
        let thenDigit = Array(#"{"a":"me"#.utf8) + [0xDD] + Array(#"c"0,"b":true}"#.utf8)
        #expect(StrictJSONObject(thenDigit, keys: ["a", "b"]) == nil)
    }

    @Test func refusesBodiesOver16KiB() {
        let padding = String(repeating: " ", count: 16 * 1024)
        #expect(read(#"{"a":"x","b":true}"#) != nil)
        #expect(read(#"{"a":"x","b":true}"# + padding) == nil)
    }
}

/// 20,000 seeded mutations of real bodies and token payloads: the reader never traps, and whatever it accepts,
/// Foundation's JSON parser reads as the same object (every string, integer and literal equal).
@Suite struct StrictJSONObjectRandomInputTests {
    static let seeds = [
        #"{"catalogItemId":"cat_weight_care","disclosureVersion":"2025-06-01","affirmed":true,"affirmedAt":"2026-01-01T00:00:00Z"}"#,
        #"{"exp":1900000000,"sub":"user-42"}"#, #"{"workflow":"merchant-onboarding"}"#, #"{"callback":"https"}"#,
        #" { "a" : "\u00e9\ud83d\ude00\"\\" , "b" : -12 , "c" : null , "d" : false } "#,
    ]
    static let pieces = [
        "{", "}", "[", "]", ":", ",", "\"", "\\", "\\u", "\\ud83d", "\\ude00", "\\u00", "0", "-", "1", "9", ".", "e",
        "true", "false", "null", "tru", " ", "\n", "\t", "\u{0}", "\u{1F}", "é", "😀", "a", "\"a\":1,", "01",
    ]

    static func mutate(_ seed: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let position = Int.random(in: 0...bytes.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: bytes.insert(contentsOf: Array(pieces.randomElement(using: &rng)!.utf8), at: position)
            case 1 where position < bytes.count: bytes.remove(at: position)
            case 2 where position < bytes.count: bytes[position] = UInt8.random(in: 0...255, using: &rng)
            default: bytes = Array(bytes.prefix(position))
            }
        }
        return bytes
    }

    /// A member as Foundation's decoder reads it.
    enum Decoded: Decodable, Equatable {
        case null, bool(Bool), integer(Int64), string(String)

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let flag = try? value.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? value.decode(Int64.self) {
                self = .integer(number)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }

    @Test func mutatedBodiesNeverTrapAndFoundationAgreesWithWhatIsAccepted() async throws {
        var rng = SeededGenerator(seed: 20_261_129)
        var accepted = 0
        await cooperativeLoop(20_000) { round in
            let body = Self.mutate(Array(Self.seeds[round % Self.seeds.count].utf8), &rng)
            guard let object = StrictJSONObject(anyNames: body) else { return }
            accepted += 1
            let foundation = try? JSONDecoder().decode([String: Decoded].self, from: Data(body))
            #expect(foundation.map { Set($0.keys) } == object.names, "\(body)")
            for (name, value) in foundation ?? [:] {
                switch value {
                case .null: #expect(object.isNull(name))
                case .bool(let flag): #expect(object.isTrue(name) == flag && object.string(name) == nil)
                case .integer(let number): #expect(object.integer(name) == number)
                case .string(let text): #expect(object.string(name) == (text.isEmpty ? nil : text))
                }
            }
        }
        print("StrictJSONObject: 20,000 mutated bodies, \(accepted) accepted, each read alike by JSONDecoder")
        #expect(accepted > 100)
    }

    @Test func allowedKeysAcceptAnySubsetAndOptionalStringsTellAbsentFromWrong() throws {
        #expect(StrictJSONObject(Array(#"{"a":"x","c":1}"#.utf8), allowedKeys: ["a", "b"]) == nil)
        let none = try #require(StrictJSONObject(Array("{}".utf8), allowedKeys: ["a", "b"]))
        #expect(none.optionalString("a") == .some(nil))
        let object = try #require(StrictJSONObject(Array(#"{"a":"","b":null}"#.utf8), allowedKeys: ["a", "b"]))
        #expect(object.anyString("a") == "" && object.string("a") == nil)
        #expect(object.optionalString("a") == .some(""))
        #expect(object.optionalString("b") == .some(nil) && object.isAbsentOrNull("b"))
        let wrong = try #require(StrictJSONObject(Array(#"{"a":1}"#.utf8), allowedKeys: ["a"]))
        #expect(wrong.optionalString("a") == .none && wrong.anyString("a") == nil)
    }
}
