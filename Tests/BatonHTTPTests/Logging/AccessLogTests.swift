import BatonCore
import BatonHTTP
import BatonHTTPTesting
import Foundation
import Synchronization
import Testing

@Suite("JSON-lines access log and redaction")
struct AccessLogTests {
    @Test(arguments: HTTPTestMode.allCases)
    func oneLinePerRequestWithTheRoutePatternNotThePath(mode: HTTPTestMode) async throws {
        let sink = InMemoryLogSink()
        let logger = Logger(sink: sink, now: { Date(timeIntervalSince1970: 1_700_000_000.123) })
        var router = Router()
        router.use(AccessLogMiddleware(logger: logger))
        router.get("/v2/connect-sessions/{sessionId}") { _ in .text("ok") }
        router.get("/fail") { _ in throw HTTPError(status: 409, code: "conflict") }
        try await router.test(mode) { client in
            _ = try await client.execute(.get, "/v2/connect-sessions/cs_private_123?token=abc")
            _ = try await client.execute(.get, "/fail")
            _ = try await client.execute(.get, "/unknown/cs_other")
        }
        let lines = sink.captured
        #expect(lines.count == 3)
        let records = try lines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records[0]["ts"] as? String == "2023-11-14T22:13:20.123Z")
        #expect(records[0]["event"] as? String == "request")
        #expect(records[0]["method"] as? String == "GET")
        #expect(records[0]["route"] as? String == "/v2/connect-sessions/{sessionId}")
        #expect(records[0]["status"] as? Int == 200)
        #expect(records[0]["duration_ms"] is Double || records[0]["duration_ms"] is Int)
        #expect((records[0]["id"] as? String)?.isEmpty == false)
        #expect(records[1]["status"] as? Int == 409)
        #expect(records[2]["status"] as? Int == 404)
        #expect(records[2]["route"] as? String == "<unmatched>")
        let all = lines.joined()
        #expect(!all.contains("cs_private_123"))
        #expect(!all.contains("token"))
        #expect(!all.contains("cs_other"))
    }

    @Test func upstreamTimeIsReportedBesideTheDuration() async throws {
        let sink = InMemoryLogSink()
        let start = ContinuousClock.now
        let elapsed = Mutex(Duration.zero)
        var router = Router()
        router.use(AccessLogMiddleware(logger: Logger(sink: sink), now: { start + elapsed.withLock { $0 } }))
        router.get("/proxied") { _ in
            // What a provider client does after each call; a child task sees the same accumulator.
            UpstreamTime.current?.add(.milliseconds(12))
            await Task { UpstreamTime.current?.add(.microseconds(500)) }.value
            elapsed.withLock { $0 += .milliseconds(15) }  // the request's whole time, on the injected clock
            return .text("ok")
        }
        router.get("/local") { _ in .text("ok") }
        try await router.test(.inProcess) { client in
            _ = try await client.execute(.get, "/proxied")
            _ = try await client.execute(.get, "/local")
        }
        let records = try sink.captured.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 2)
        #expect(records[0]["upstream_ms"] as? Double == 12.5)
        #expect(try #require(records[0]["duration_ms"] as? Double) >= 15)
        #expect(records[1]["upstream_ms"] == nil)
    }

    @Test func everyLoggedStringRoundTripsThroughAJSONParser() throws {
        // Plain values take a fast path (appended whole); the rest are escaped scalar by scalar. Both must give JSON
        // that reads back to the same string, U+2028/U+2029 and control characters included.
        let sink = InMemoryLogSink()
        let logger = Logger(sink: sink)
        let pieces = [
            "a", "é", "😀", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}", "€", " ",
        ]
        var generator = SystemRandomNumberGenerator()
        var values: [String] = ["", "plain-ascii_value/1.2:3", "\u{2028}"]
        for _ in 0..<500 {
            values.append(
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                    .joined())
        }
        for value in values { logger.log(.info, "probe", ["value": .string(value)]) }
        let lines = sink.captured
        #expect(lines.count == values.count)
        for (line, value) in zip(lines, values) {
            #expect(!line.contains("\n") && !line.contains("\u{2028}"), "a raw line break in \(line)")
            let record = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(record["value"] as? String == value)
        }
    }

    @Test func sensitiveValuesNeverReachALogLine() async throws {
        let journey = try #require(
            SensitiveURL("https://verify.privue.example/acme/kyc#ticket=TICKET0123456789abcdef0123456789"))
        let apiKey = Secret("sk_live_PROVIDERKEY_0042")
        let sink = InMemoryLogSink()
        let logger = Logger(sink: sink)
        var router = Router()
        router.use(AccessLogMiddleware(logger: logger))
        router.post("/v2/verification-handoffs") { request in
            // A careless handler logs the values it holds: the types redact themselves.
            logger.log(
                .info, "handoff_created",
                [
                    "url": "\(journey)", "key": "\(apiKey)",
                    "debug": "\(String(reflecting: journey)) \(String(reflecting: apiKey))",
                ])
            logger.log(
                .info, "dump",
                [
                    "value": .string(
                        {
                            var text = ""; dump((journey, apiKey), to: &text); return text
                        }())
                ])
            return try .json(["url": journey.revealForPresentation()], status: 201)
        }
        router.get("/boom/{id}") { _ in throw SensitiveFailure(url: journey, key: apiKey) }

        try await withServer(testConfiguration(sink: sink), router: router) { server in
            let transport = CurlTransport()
            let created = try await transport.send(
                OutboundRequest(
                    method: .post,
                    url: server.url("/v2/verification-handoffs?return=\(journey.revealForPresentation())"),
                    headers: ["Authorization": "Bearer \(apiKey.revealForUse())", "Content-Type": "application/json"],
                    body: Array(#"{"workflow":"kyc","key":"sk_live_PROVIDERKEY_0042"}"#.utf8)))
            #expect(created.status == 201)
            #expect(created.bodyText.contains("TICKET0123456789abcdef0123456789"))  // the one response allowed to
            let failed = try await transport.send(
                OutboundRequest(
                    url: server.url("/boom/TICKET0123456789abcdef0123456789"),
                    headers: ["X-Api-Key": apiKey.revealForUse()]))
            #expect(failed.status == 500)
            #expect(!failed.bodyText.contains("TICKET"))
        }
        let captured = sink.captured.joined(separator: "\n")
        #expect(sink.captured.count >= 5)
        #expect(captured.contains("verify.privue.example"))  // the redacted form is there…
        for secretText in [
            "TICKET0123456789abcdef0123456789", "ticket=", "sk_live_PROVIDERKEY_0042", "PROVIDERKEY", "/acme/kyc",
        ] {
            #expect(!captured.contains(secretText), "log output leaked \(secretText)")  // …the secret parts are not
        }
    }
}

struct SensitiveFailure: Error {
    let url: SensitiveURL
    let key: Secret
}
