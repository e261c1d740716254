import BatonHTTP
import BatonHTTPTesting
import Foundation
import Synchronization
import Testing

/// RFC 9112 message framing, sent byte for byte over a raw socket to the server `baton serve` runs: what a strict
/// server refuses is refused before routing (no handler runs), with problem+json, and the connection closed.
///
/// Where libmicrohttpd answers before any Baton callback runs, the row records exactly what it does (`answeredBy:
/// .libmicrohttpd`): its own HTML page, no problem+json. docs/reliability-history.md lists the same cases (Findings).
///
/// Serialized: each row starts a server, and twenty at once add threads a loaded two-core host does not need.
@Suite("HTTP message framing (RFC 9112), raw sockets", .serialized)
struct FramingTests {
    enum Answerer: Sendable { case baton, libmicrohttpd, handler }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let raw: [UInt8]
        let status: Int
        let answeredBy: Answerer
        let closes: Bool
        var testDescription: String { name }

        init(_ name: String, _ raw: String, _ status: Int, by answeredBy: Answerer, closes: Bool = true) {
            self.name = name
            self.raw = Array(raw.utf8)
            self.status = status
            self.answeredBy = answeredBy
            self.closes = closes
        }
    }

    static let post = "POST /echo HTTP/1.1\r\nHost: x\r\n"

    static let cases: [Case] = [
        Case(
            "two different Content-Length", post + "Content-Length: 2\r\nContent-Length: 4\r\n\r\n{}{}", 400, by: .baton
        ),
        Case(
            "Content-Length and chunked", post + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            400, by: .baton),
        Case("NUL in the target", "GET /healthz\0x HTTP/1.1\r\nHost: x\r\n\r\n", 400, by: .baton),
        Case("tab in the target", "GET /healthz\tx HTTP/1.1\r\nHost: x\r\n\r\n", 400, by: .baton),
        Case("unknown transfer coding", post + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501, by: .baton),
        Case(
            "chunked twice", post + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501,
            by: .baton),
        Case("absolute-form target", "GET http://x/healthz HTTP/1.1\r\nHost: x\r\n\r\n", 400, by: .baton),
        Case("asterisk-form target", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", 400, by: .baton),
        Case("target without the leading /", "GET x/healthz HTTP/1.1\r\nHost: x\r\n\r\n", 400, by: .baton),
        Case("CR inside a field value", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", 400, by: .baton),
        Case("space before a field's colon", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A : b\r\n\r\n", 400, by: .baton),
        // libmicrohttpd checks the version before calling Baton at all: its 505 HTML page, then close.
        Case("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505, by: .libmicrohttpd),
        // libmicrohttpd refuses a Content-Length it cannot read as one number with its own 400 HTML page.
        Case("Content-Length list of two values", post + "Content-Length: 2, 4\r\n\r\n{}{}", 400, by: .libmicrohttpd),
        // An obs-fold inside Host: libmicrohttpd's own 400 HTML page.
        Case("obs-fold in Host", "GET /healthz HTTP/1.1\r\nHost: x\r\n y\r\n\r\n", 400, by: .libmicrohttpd),
        // An obs-fold in any other field: libmicrohttpd 0.9.75 appends the continuation to the field's name
        // (`X-A: a` + ` b` becomes `X-Ab: a`); Baton sees the name moved away from its value and refuses.
        Case("obs-fold in a field", "GET /fold HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", 400, by: .baton),
        Case(
            "obs-fold, longer continuation", "GET /fold HTTP/1.1\r\nHost: x\r\nX-A: a\r\n\tbcdefgh\r\nX-B: c\r\n\r\n",
            400,
            by: .baton),
        Case(
            "field without a space after the colon", "GET /fold HTTP/1.1\r\nHost: x\r\nX-A:a\r\n\r\n", 200,
            by: .handler,
            closes: false),
        Case(
            "field with tabs before its value", "GET /fold HTTP/1.1\r\nHost: x\r\nX-A: \t a\r\n\r\n", 200, by: .handler,
            closes: false),
        // The same Content-Length twice is one length (RFC 9110 §8.6): served.
        Case(
            "Content-Length repeated, same value", post + "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", 200,
            by: .handler, closes: false),
    ]

    static func router(reached: HitCounter) -> Router {
        var router = Router()
        router.get("/healthz") { _ in
            reached.hit()
            return .text("ok")
        }
        router.get("/fold") { request in
            reached.hit()
            return .text(
                "x-a=[\(request.headers["x-a"] ?? "")] all=\(request.headers.map { "\($0.name)=\($0.value.debugDescription)" })"
            )
        }
        router.post("/echo") { request in
            reached.hit()
            return .text("got \(request.body.count)")
        }
        return router
    }

    @Test(arguments: cases)
    func framing(_ testCase: Case) async throws {
        let reached = HitCounter()
        try await withServer(router: Self.router(reached: reached)) { server in
            let client = try RawClient(port: server.port, readTimeout: 5)
            await client.send(bytes: testCase.raw)
            let (response, closed): (String, Bool)
            if testCase.closes {
                (response, closed) = await client.readUntilClosed()
            } else {
                response = await client.readResponse()
                closed = false
            }
            let head = response.components(separatedBy: "\r\n\r\n").first ?? ""
            print("framing \(testCase.name) →", head.prefix(while: { $0 != "\r" }), closed ? "(closed)" : "")
            #expect(response.hasPrefix("HTTP/1.1 \(testCase.status) "))
            #expect(closed == testCase.closes)
            let problem = head.lowercased().contains("content-type: application/problem+json")
            switch testCase.answeredBy {
            case .baton:
                #expect(problem)
                #expect(head.lowercased().contains("connection: close"))
                #expect(reached.count == 0)
            case .libmicrohttpd:
                #expect(!problem)
                #expect(response.contains("<html>"))
                #expect(reached.count == 0)
            case .handler:
                #expect(reached.count == 1)
                if testCase.raw.starts(with: Array("GET /fold".utf8)) { #expect(response.contains("x-a=[a]")) }
            }
        }
    }

    @Test func keptAliveConnectionServesTheNextRequestAfterAnAcceptedOne() async throws {
        let reached = HitCounter()
        try await withServer(router: Self.router(reached: reached)) { server in
            let client = try RawClient(port: server.port)
            await client.send(Self.post + "Content-Length: 2\r\n\r\n{}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse().hasSuffix("got 2"))
            #expect(await client.readResponse().hasSuffix("ok"))
            #expect(reached.count == 2)
        }
    }
}

/// How many times handlers ran.
final class HitCounter: Sendable {
    private let hits = Atomic(0)

    func hit() { hits.add(1, ordering: .relaxed) }

    var count: Int { hits.load(ordering: .relaxed) }
}
