import BatonHTTP
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `baton serve --rate-limit`, tested by running the built binary.
@Suite("baton serve --rate-limit")
struct ServeRateLimitTests {
    typealias Serve = ServeCommandTests

    @Test(arguments: ["0/10", "10", "10/x", "-1/5", "100001/1", "on"])
    func aMalformedLimitIsAUsageError(value: String) async throws {
        let directory = try Serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let child = try Serve.Child(["serve", "--sandbox", "--rate-limit", value], in: directory)
        #expect(try await child.finish() == 2)
        #expect(child.stderr.contains("--rate-limit"))
    }

    @Test func theLimitGivenIsTheOneServed() async throws {
        let directory = try Serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var port = Serve.freePortRun()
        var server = try Serve.Child(
            ["serve", "--sandbox", "--port", String(port), "--rate-limit", "2/1"], in: directory)
        for _ in 0..<4 {
            let started = try await offCooperativePool { [process = server.process] in
                process.waitForOutput(timeout: 20) { $0.contains("ready") }
            }
            if started { break }
            _ = try await server.finish()
            guard server.stderr.contains("cannot listen") else { break }
            port = Serve.freePortRun()
            server = try Serve.Child(
                ["serve", "--sandbox", "--port", String(port), "--rate-limit", "2/1"], in: directory)
        }
        try await Serve.waitFor(server, "ready")
        let tokenRun = try Serve.Child(["token", "--user", "alice"], in: directory)
        #expect(try await tokenRun.finish() == 0)
        let token = tokenRun.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let transport = CurlTransport()
        let read = OutboundRequest(
            url: "http://127.0.0.1:\(port)/v2/connect-sessions/cs_unknown",
            headers: ["authorization": "Bearer " + token])
        #expect(try await transport.send(read).status == 404)
        #expect(try await transport.send(read).status == 404)
        let limited = try await transport.send(read)
        #expect(limited.status == 429)
        #expect(limited.bodyText.contains(#""code":"rate_limited""#))
        #expect(limited.headers["retry-after"] == "60")
        server.process.send(SIGTERM)
        #expect(try await server.finish() == 0)
    }
}
