import BatonHTTP
import Testing

@testable import BatonServer

@Suite("Chia's created session is read from its response body the same way, flat or not")
struct ChiaResponseTests {
    private func read(_ body: String) -> [String]? {
        ChiaClient.urlAndExpiry(OutboundResponse(status: 201, body: Array(body.utf8))).map { [$0.url, $0.expiresAt] }
    }

    @Test func aFlatBodyIsReadByTheByteReader() {
        #expect(
            read(#"{"url":"https://chia.example/h/phs_1","expiresAt":"2026-01-01T00:15:00Z","id":"phs_1","n":1}"#)
                == ["https://chia.example/h/phs_1", "2026-01-01T00:15:00Z"])
        #expect(read(#"{"url":"https:\/\/chia.example\/h\/x","expiresAt":"t"}"#) == ["https://chia.example/h/x", "t"])
    }

    /// Members the flat reader refuses (nested values, fractions) still read as `JSONDecoder` reads them.
    @Test func aBodyWithNestedMembersFallsBackToTheDecoder() {
        #expect(
            read(#"{"url":"https://chia.example/h/2","expiresAt":"t","links":{"self":"x"},"score":0.5,"tags":[]}"#)
                == ["https://chia.example/h/2", "t"])
    }

    @Test(arguments: [
        #"{"expiresAt":"t"}"#, #"{"url":"u"}"#, #"{"url":1,"expiresAt":"t"}"#, #"{"url":"u","expiresAt":null}"#,
        #"{"url":"u","expiresAt":{"at":"t"}}"#, "[]", "", "not json",
    ])
    func aBodyWithoutBothStringsIsRefused(body: String) {
        #expect(read(body) == nil)
    }
}
