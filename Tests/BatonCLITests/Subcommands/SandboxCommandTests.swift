import BatonHTTP
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `baton sandbox` as a new user runs it: start, create a connect session with curl-like calls, finish the hosted
/// flow, see the redirect and the authoritative state agree, Ctrl-C.
@Suite struct SandboxCommandTests {
    /// A running `baton sandbox --json` process and the JSON line it printed.
    final class Running: Sendable {
        let process: ChildProcess
        let guide: [String: [String: String]]

        init(port: Int) throws {
            // Its keys live in --state: a scratch folder, never the repository's own ./.baton.
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("baton-sandbox-\(UUID())").path
            process = try ChildProcess(
                BatonBinary.executable, ["sandbox", "--port", String(port), "--state", state, "--json"],
                in: BatonBinary.repositoryRoot)
            guard process.waitForOutput(timeout: 20, until: { $0.contains("\n") }) else {
                process.send(SIGKILL)
                throw CocoaError(.fileReadUnknown)
            }
            let line = Data(process.standardOutput.prefix { $0 != "\n" }.utf8)
            let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] ?? [:]
            self.guide = object.compactMapValues { value in
                (value as? [String: Any])?.compactMapValues { $0 as? String }
            }
        }

        /// Starts the command and reads its first line, off the cooperative pool.
        static func start(port: Int) async throws -> Running {
            try await offCooperativePool { try Running(port: port) }
        }

        /// Ctrl-C, then the exit status.
        func interrupt() async throws -> Int32 {
            try await offCooperativePool { [process] in
                process.send(SIGINT)
                return process.waitForExit()
            }
        }
    }

    @Test func connectSessionRoundTripThenCtrlC() async throws {
        // A random port range; another run of the command on a taken port exits at once, so try a few.
        var port = 0
        var started: Running?
        for _ in 0..<5 where started == nil {
            port = Int.random(in: 20_000...50_000)
            started = try? await Running.start(port: port)
        }
        let running = try #require(started)
        defer { if running.process.isRunning { running.process.send(SIGKILL) } }
        let bb = try #require(running.guide["bb"])
        #expect(bb["origin"] == "http://127.0.0.1:\(port + 2)")
        #expect(running.guide["chia"]?["origin"] == "http://127.0.0.1:\(port)")
        #expect(running.guide["privue"]?["origin"] == "http://127.0.0.1:\(port + 1)")
        #expect(bb["webhookSecret"]?.hasPrefix("whsec_") == true)
        let origin = try #require(bb["origin"])
        let auth: HTTPHeaders = [
            "x-api-key": try #require(bb["apiKey"]), "x-client-id": try #require(bb["clientId"]),
            "content-type": "application/json",
        ]
        let transport = CurlTransport()
        let created = try await transport.send(
            OutboundRequest(
                method: .post, url: origin + "/v2/connect-sessions", headers: auth,
                body: Array(#"{"returnUrl":"https://app.example.com/bb-callback"}"#.utf8)))
        #expect(created.status == 201)
        let session = try #require(try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])
        let sessionID = try #require(session["sessionId"] as? String)
        let hosted = try #require(session["hostedUrl"] as? String)
        let page = try await transport.send(OutboundRequest(url: hosted))
        #expect(page.status == 200)
        let finished = try await transport.send(
            OutboundRequest(
                method: .post, url: hosted + "/complete",
                headers: ["content-type": "application/x-www-form-urlencoded"],
                body: Array("resultCode=Ok".utf8)))
        #expect(finished.status == 303)
        let location = try #require(finished.headers["location"])
        #expect(
            location.hasPrefix("https://app.example.com/bb-callback?sessionId=\(sessionID)&resultCode=Ok&connectionId=")
        )
        let read = try await transport.send(
            OutboundRequest(url: origin + "/v2/connect-sessions/\(sessionID)", headers: auth))
        let state = try #require(try JSONSerialization.jsonObject(with: Data(read.body)) as? [String: Any])
        #expect(state["resultCode"] as? String == "Ok")
        #expect(location.hasSuffix("connectionId=\(state["connectionId"] as? String ?? "?")"))
        #expect(try await running.interrupt() == 0)
    }

    @Test func invalidOptionsAreUsageErrors() async throws {
        let result = try await BatonBinary.run(["sandbox", "--privue-return", "acme://kyc/done"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("https"))
        #expect(try await BatonBinary.run(["sandbox", "--port", "70000"]).status == 2)
        let help = try await BatonBinary.run(["sandbox", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("PORT+1"))
    }
}
