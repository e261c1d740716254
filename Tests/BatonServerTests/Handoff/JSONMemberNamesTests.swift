import Testing

@testable import BatonServer

@Suite("JSON member names: a repeated name anywhere in an object is seen")
struct JSONMemberNamesTests {
    @Test(
        "duplicates at any depth, after unescaping",
        arguments: [
            #"{"a":1,"a":2}"#,
            #"{"a":1,"b":{"c":1,"c":1}}"#,
            #"{"a":[{"x":1},{"y":1,"y":2}]}"#,
            #"{"a\u0062":1,"ab":2}"#,
            #"{"a":"\"b\",\"a\":","b":1,"a":0}"#,
            #" { "a" : 1 , "a" : 1 } "#,
        ])
    func duplicates(json: String) {
        #expect(JSONMemberNames.containDuplicates(Array(json.utf8)))
    }

    @Test(
        "distinct names, including the same name in sibling or nested objects and as a value",
        arguments: [
            #"{"a":1,"b":2}"#,
            #"{"a":{"a":1},"b":{"a":2}}"#,
            #"[{"a":1},{"a":1}]"#,
            #"{"a":"a","b":["a","a"]}"#,
            #"{"a\"":1,"a":2}"#,
            #"{}"#,
        ])
    func distinct(json: String) {
        #expect(!JSONMemberNames.containDuplicates(Array(json.utf8)))
    }
}
