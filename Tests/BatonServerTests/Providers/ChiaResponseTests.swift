import BatonHTTP
import Testing

@testable import BatonServer

@Suite("Chia's created session is read from its response body by the one strict reader, flat or not")
struct ChiaResponseTests {
    private func read(_ body: String) -> [String]? {
        ChiaClient.urlAndExpiry(OutboundResponse(status: 201, body: Array(body.utf8))).map { [$0.url, $0.expiresAt] }
    }

    @Test func aFlatBodyIsRead() {
        #expect(
            read(#"{"url":"https://chia.example/h/phs_1","expiresAt":"2026-01-01T00:15:00Z","id":"phs_1","n":1}"#)
                == ["https://chia.example/h/phs_1", "2026-01-01T00:15:00Z"])
        #expect(read(#"{"url":"https:\/\/chia.example\/h\/x","expiresAt":"t"}"#) == ["https://chia.example/h/x", "t"])
    }

    /// Members Chia may add, whatever their shape (nested values, fractions, arrays), are read and ignored.
    @Test func aBodyWithNestedMembersIsRead() {
        #expect(
            read(#"{"url":"https://chia.example/h/2","expiresAt":"t","links":{"self":"x"},"score":0.5,"tags":[]}"#)
                == ["https://chia.example/h/2", "t"])
    }

    /// The reader's rules hold for the whole body, nested members included: no name twice in one object (which
    /// `JSONDecoder`, the fallback once, accepted), nothing after the object.
    @Test(arguments: [
        #"{"url":"https://chia.example/h/1","url":"https://chia.example/h/2","expiresAt":"t"}"#,
        #"{"url":"https://chia.example/h/1","expiresAt":"t","links":{"self":"x","self":"y"}}"#,
        #"{"url":"https://chia.example/h/1","expiresAt":"t","n":0.5} {}"#,
    ])
    func aBodyBreakingTheReadersRulesIsRefused(body: String) {
        #expect(read(body) == nil)
    }

    @Test(arguments: [
        #"{"expiresAt":"t"}"#, #"{"url":"u"}"#, #"{"url":1,"expiresAt":"t"}"#, #"{"url":"u","expiresAt":null}"#,
        #"{"url":"u","expiresAt":{"at":"t"}}"#, "[]", "", "not json",
    ])
    func aBodyWithoutBothStringsIsRefused(body: String) {
        #expect(read(body) == nil)
    }
}
