import BatonHTTP
import BatonHTTPTesting
import Foundation
import Testing

@Suite("Server limits: a clear answer, never a crash or a hang")
struct LimitTests {
    static func echoRouter() -> Router {
        var router = Router()
        router.post("/upload") { request in .text("got \(request.body.count)") }
        router.get("/{anything}") { _ in .text("ok") }
        return router
    }

    @Test func bodyOverTheLimitIs413() async throws {
        let configuration = testConfiguration { $0.limits.maxBodyBytes = 1024 }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            let transport = CurlTransport()
            let small = try await transport.send(
                OutboundRequest(method: .post, url: server.url("/upload"), body: Array(repeating: 1, count: 1024)))
            #expect(small.bodyText == "got 1024")
            let large = try await transport.send(
                OutboundRequest(method: .post, url: server.url("/upload"), body: Array(repeating: 1, count: 1025)))
            #expect(large.status == 413)
            #expect(large.headers["content-type"] == "application/problem+json")
        }
    }

    @Test func chunkedBodyOverTheLimitIs413() async throws {
        let configuration = testConfiguration { $0.limits.maxBodyBytes = 1024 }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            let client = try RawClient(port: server.port)
            let chunk = String(repeating: "a", count: 800)
            await client.send(
                "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    + "320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n")
            let (response, _) = await client.readUntilClosed()
            #expect(response.hasPrefix("HTTP/1.1 413"))
        }
    }

    @Test func largeBodySentInFullIsAnswered413() async throws {
        let configuration = testConfiguration { $0.limits.maxBodyBytes = 1024 }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            let client = try RawClient(port: server.port)
            let size = 16 << 20
            // Like the reliability suite's client: the whole 16 MiB upload goes out before the answer is read. The
            // server must take it (and throw it away) and answer 413, not reset the connection under the client.
            let sent = await client.send(
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(size)\r\n\r\n"
                    + String(repeating: "a", count: size))
            let head = await client.readHead()
            print("16 MiB upload answer:", head.prefix(while: { $0 != "\r" }))
            #expect(sent)
            #expect(head.hasPrefix("HTTP/1.1 413"))
            #expect(head.lowercased().contains("connection: close"))
        }
    }

    @Test(arguments: [
        "Content-Length: 16777216\r\nExpect: 100-continue",  // the client waits: refused before any body byte
        "Content-Length: 1073741824",  // more than is worth reading: refused at once
    ])
    func largeDeclaredBodyIs413BeforeItIsSent(headers: String) async throws {
        let configuration = testConfiguration { $0.limits.maxBodyBytes = 1024 }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            let client = try RawClient(port: server.port)
            await client.send("POST /upload HTTP/1.1\r\nHost: x\r\n\(headers)\r\n\r\n")
            let (response, closed) = await client.readUntilClosed()
            #expect(response.hasPrefix("HTTP/1.1 413"))
            #expect(response.lowercased().contains("connection: close"))
            #expect(closed)
        }
    }

    @Test func targetOverTheLimitIs414() async throws {
        let configuration = testConfiguration { $0.limits.maxURLBytes = 2048 }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            let transport = CurlTransport()
            let fits = try await transport.send(
                OutboundRequest(url: server.url("/" + String(repeating: "a", count: 2000))))
            #expect(fits.status == 200)
            let long = try await transport.send(
                OutboundRequest(url: server.url("/" + String(repeating: "a", count: 3000))))
            #expect(long.status == 414)
        }
    }

    @Test func tooManyHeadersIs431() async throws {
        let configuration = testConfiguration { $0.limits.maxHeaderCount = 20 }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            var headers = HTTPHeaders()
            for index in 0..<30 { headers.add("x-h\(index)", "v") }
            let response = try await CurlTransport().send(OutboundRequest(url: server.url("/x"), headers: headers))
            #expect(response.status == 431)
        }
    }

    @Test func headersOverTheMemoryLimitAreRefused() async throws {
        let configuration = testConfiguration { $0.limits.connectionMemoryBytes = 16 * 1024 }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            let client = try RawClient(port: server.port)
            let big = String(repeating: "b", count: 20 * 1024)
            await client.send("GET /x HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n")
            let (response, closed) = await client.readUntilClosed()
            print("oversized header answer:", response.prefix(while: { $0 != "\r" }))
            #expect(response.hasPrefix("HTTP/1.1 431") || response.hasPrefix("HTTP/1.1 413"))
            #expect(closed)
        }
    }

    @Test func requestLineOverTheMemoryLimitIsRefused() async throws {
        let configuration = testConfiguration { $0.limits.connectionMemoryBytes = 16 * 1024 }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            let client = try RawClient(port: server.port)
            await client.send("GET /\(String(repeating: "c", count: 20 * 1024)) HTTP/1.1\r\nHost: x\r\n\r\n")
            let (response, closed) = await client.readUntilClosed()
            print("oversized request line answer:", response.prefix(while: { $0 != "\r" }))
            #expect(response.hasPrefix("HTTP/1.1 414") || response.hasPrefix("HTTP/1.1 431"))
            #expect(closed)
        }
    }

    @Test(arguments: [
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
        "GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n",
    ])
    func malformedRequestIs400(raw: String) async throws {
        try await withServer(router: Self.echoRouter()) { server in
            let client = try RawClient(port: server.port)
            await client.send(raw)
            let head = await client.readHead()
            print("malformed \(raw.debugDescription) →", head.prefix(while: { $0 != "\r" }))
            #expect(head.hasPrefix("HTTP/1.1 400") || head.hasPrefix("HTTP/1.0 400"))
        }
    }

    @Test(arguments: ["GARBAGE\r\n\r\n", "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n"])
    func unparseableRequestLineIsClosed(raw: String) async throws {
        try await withServer(router: Self.echoRouter()) { server in
            let client = try RawClient(port: server.port)
            await client.send(raw)
            let (response, closed) = await client.readUntilClosed()
            #expect(response.isEmpty || response.hasPrefix("HTTP/1.1 400"))
            #expect(closed)
        }
    }

    @Test func idleClientIsCutOff() async throws {
        let configuration = testConfiguration { $0.limits.idleTimeout = .seconds(1) }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            let client = try RawClient(port: server.port)
            let clock = ContinuousClock()
            let start = clock.now
            await client.send("GET /x HTTP/1.1\r\nHost: x\r\n")  // headers never finished
            let (_, closed) = await client.readUntilClosed()
            let elapsed = clock.now - start
            print("idle client cut off after \(elapsed)")
            #expect(closed)
            // Without the cut-off the connection would stay open for the server's life; the bound leaves room for
            // a loaded CI host.
            #expect(elapsed < .seconds(20))
        }
    }

    @Test func slowDripHeadersAreCutOff() async throws {
        let configuration = testConfiguration {
            $0.limits.idleTimeout = .seconds(5)
            $0.limits.headerTimeout = .seconds(1)
        }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            let client = try RawClient(port: server.port)
            await client.send("GET /x HTTP/1.1\r\nHost: x\r\nX-Drip: ")
            // Each header byte resets the 5 s idle timer, so only the 1 s header deadline can end this within 20 s.
            let cutOff = await client.dripUntilClosed(interval: .milliseconds(200), limit: .seconds(20))
            print("slow-drip headers cut off after \(cutOff.map { "\($0)" } ?? "never")")
            #expect(cutOff != nil)
        }
    }

    @Test func keptAliveConnectionGetsAFreshHeaderDeadline() async throws {
        let configuration = testConfiguration { $0.limits.headerTimeout = .seconds(1) }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            let client = try RawClient(port: server.port)
            await client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readHead().hasPrefix("HTTP/1.1 200"))
            await client.send("GET /b HTTP/1.1\r\nHost: x\r\nX-Drip: ")
            let cutOff = await client.dripUntilClosed(interval: .milliseconds(200), limit: .seconds(20))
            #expect(cutOff != nil)
        }
    }

    @Test func slowDripBodyIsCutOff() async throws {
        let configuration = testConfiguration {
            $0.limits.idleTimeout = .seconds(5)
            $0.limits.bodyTimeout = .seconds(1)
        }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            let client = try RawClient(port: server.port)
            await client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
            // Each drip resets the 5 s idle timer, so only the 1 s body deadline can end this within the 20 s limit.
            let cutOff = await client.dripUntilClosed(interval: .milliseconds(200), limit: .seconds(20))
            print("slow-drip body cut off after \(cutOff.map { "\($0)" } ?? "never")")
            let elapsed = try #require(cutOff)
            #expect(elapsed < .seconds(12))
        }
    }

    @Test func connectionsOverTheLimitWaitForAFreeSlot() async throws {
        let configuration = testConfiguration {
            $0.threadPoolSize = 1
            $0.limits.maxConnections = 2
        }
        try await withServer(configuration, router: Self.echoRouter()) { server in
            let first = try RawClient(port: server.port)
            let second = try RawClient(port: server.port)
            await first.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
            await second.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await first.readHead().hasPrefix("HTTP/1.1 200"))
            #expect(await second.readHead().hasPrefix("HTTP/1.1 200"))
            // The third connection waits in the listen backlog (nothing answered) until a slot frees up.
            let third = try RawClient(port: server.port)
            await third.send("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(await third.waitForData(within: .milliseconds(300)) == false)
            first.close()
            let (response, closed) = await third.readUntilClosed()
            #expect(response.hasPrefix("HTTP/1.1 200"))
            #expect(closed)
        }
    }
}
