import Testing

@testable import BatonHTTP

/// The byte-level framing rules, without a socket (the raw-socket table is `FramingTests`).
@Suite struct RequestFramingTests {
    @Test(
        arguments: [
            ([("Content-Length", "2")], nil),
            ([("content-length", "2"), ("Content-Length", "2")], nil),
            ([("Transfer-Encoding", "chunked")], nil),
            ([("Transfer-Encoding", " Chunked ")], nil),
            ([("Content-Length", "2"), ("Content-Length", "3")], .conflictingContentLength),
            ([("Content-Length", "-2")], .conflictingContentLength),
            ([("Content-Length", "2 ")], .conflictingContentLength),
            ([("Content-Length", "99999999999999999999")], .conflictingContentLength),
            ([("Content-Length", "2"), ("Transfer-Encoding", "chunked")], .lengthAndTransferEncoding),
            ([("Transfer-Encoding", "chunked"), ("Content-Length", "2")], .lengthAndTransferEncoding),
            ([("Transfer-Encoding", "gzip, chunked")], .unsupportedTransferCoding),
            ([("Transfer-Encoding", "identity")], .unsupportedTransferCoding),
            ([("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")], .unsupportedTransferCoding),
        ] as [([(String, String)], RequestFraming.Refusal?)])
    func framingFields(fields: [(String, String)], refusal: RequestFraming.Refusal?) {
        #expect(RequestFraming.refusal(for: HTTPHeaders(fields)) == refusal)
    }

    @Test(arguments: [
        ("/", true), ("/v2/catalog?x=1&y=%20", true), ("/a/b/", true), ("//a", true),
        ("", false), ("x/v2/catalog", false), ("*", false), ("http://h/v2", false), ("/a b", false),
        ("/a\tb", false), ("/a\u{7F}", false),
    ])
    func originForm(target: String, accepted: Bool) {
        #expect(RequestFraming.isOriginForm(target) == accepted)
    }

    @Test func fieldBytes() {
        func invalid(_ text: String, name: Bool) -> Bool {
            Array(text.utf8).withUnsafeBytes { RequestFraming.hasInvalidFieldByte($0, isName: name) }
        }
        #expect(!invalid("text/plain; q=0.5\tx", name: false))
        #expect(invalid("a\rb", name: false))
        #expect(invalid("a\0b", name: false))
        #expect(invalid("a\u{7F}", name: false))
        #expect(!invalid("X-Request-Id", name: true))
        #expect(invalid("X A", name: true))
        #expect(invalid("X\tA", name: true))
    }
}
