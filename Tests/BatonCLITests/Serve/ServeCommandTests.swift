import BatonHTTP
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `baton serve` and `baton token`, tested by running the built binary as a new user would.
@Suite("baton serve and baton token")
struct ServeCommandTests {
    /// A running `baton` child process whose output is captured.
    final class Child: Sendable {
        let process: ChildProcess

        init(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws {
            process = try ChildProcess(BatonBinary.executable, arguments, in: directory, environment: environment)
        }

        var stdout: String { process.standardOutput }
        var stderr: String { process.standardError }

        func finish() async throws -> Int32 {
            try await offCooperativePool { [process] in process.waitForExit() }
        }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("baton-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A port with the next three free too (the sandbox takes PORT+1..+3).
    static func freePortRun() -> Int {
        for _ in 0..<50 {
            let port = Int.random(in: 20_000...60_000)
            if (port...port + 3).allSatisfy(isFree) { return port }
        }
        return 38_080
    }

    static func isFree(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    static func waitFor(_ child: Child, _ text: String) async throws {
        let printed = try await offCooperativePool { [process = child.process] in
            process.waitForOutput(timeout: 20) { $0.contains(text) }
        }
        if !printed { Issue.record("never printed '\(text)'; stderr: \(child.stderr.prefix(500))") }
    }

    @Test func aMissingOrMalformedSettingIsRefusedWithTheFieldNamed() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config =
            #"{"server":{"publicOrigin":"https://p.example"},"chia":{"apiOrigin":"https://c.example","assetOrigin":"https://c.example"},"privue":{"returnURL":"acme://x","workflows":["w"]},"bb":{"apiOrigin":"https://b.example","returnURLs":{"https":"https://app.example/cb"}}}"#
        try Data(config.utf8).write(to: directory.appendingPathComponent("baton.json"))
        let child = try Child(["serve"], in: directory, environment: ["BATON_BB_API_KEY": "tiny-s3cret"])
        #expect(try await child.finish() == 1)
        for field in ["privue.apiOrigin", "privue.returnURL", "BATON_BB_API_KEY", "BATON_SEALING_KEY"] {
            #expect(child.stderr.contains(field), "\(field) not named")
        }
        #expect(!child.stderr.contains("tiny-s3cret"))
    }

    @Test func sandboxServeTokenAndCurlAConnectSession() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A port found free can be taken by a parallel test before serve binds it: then try another.
        var port = Self.freePortRun()
        var server = try Child(["serve", "--sandbox", "--port", String(port)], in: directory)
        for _ in 0..<4 {
            let started = try await offCooperativePool { [process = server.process] in
                process.waitForOutput(timeout: 20) { $0.contains("ready") }
            }
            if started { break }
            _ = try await server.finish()
            guard server.stderr.contains("cannot listen") else { break }
            port = Self.freePortRun()
            server = try Child(["serve", "--sandbox", "--port", String(port)], in: directory)
        }
        try await Self.waitFor(server, "ready")
        #expect(server.stdout.contains("http://127.0.0.1:\(port + 3)"))
        let secrets = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent(".baton/secrets.json").path)
        #expect((secrets[.posixPermissions] as? Int) == 0o600)

        let tokenRun = try Child(["token", "--user", "alice"], in: directory)
        #expect(try await tokenRun.finish() == 0)
        let token = tokenRun.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let transport = CurlTransport()
        let base = "http://127.0.0.1:\(port)"
        let auth: HTTPHeaders = ["authorization": "Bearer " + token, "content-type": "application/json"]
        let created = try await transport.send(
            OutboundRequest(
                method: .post, url: base + "/v2/connect-sessions", headers: auth,
                body: Array(#"{"callback":"https"}"#.utf8)))
        #expect(created.status == 201)
        let session = try #require(
            (try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])?["sessionId"] as? String)
        let completed = try await transport.send(
            OutboundRequest(
                method: .post, url: "http://127.0.0.1:\(port + 3)/_sandbox/journeys/\(session)/complete",
                headers: ["content-type": "application/json"], body: Array(#"{"resultCode":"Cancelled"}"#.utf8)))
        #expect(completed.status == 200)
        let result = try await transport.send(
            OutboundRequest(url: base + "/v2/connect-sessions/\(session)", headers: auth))
        #expect(result.bodyText.contains(#""status":"cancelled""#))

        // The catalog pipeline and the web shell are mounted, and /metrics carries the sync's status.
        try await Self.waitFor(server, "catalog sync: serving publication")
        let catalog = try await transport.send(OutboundRequest(url: base + "/v2/catalog", headers: auth))
        #expect(catalog.status == 200)
        #expect(catalog.bodyText.contains(#""id":"cat_weight_care""#))
        #expect(catalog.bodyText.contains(#""mode":"share_or_neutral""#))
        #expect(try await transport.send(OutboundRequest(url: base + "/web/")).status == 200)
        // /metrics is on the admin listener (a loopback port printed at start), not on the public one.
        #expect(try await transport.send(OutboundRequest(url: base + "/metrics")).status == 404)
        let adminLine = try #require(server.stdout.split(separator: "\n").first { $0.contains("baton serve: admin") })
        let admin = try #require(adminLine.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") })
        let metrics = try await transport.send(OutboundRequest(url: admin + "/metrics"))
        #expect(metrics.bodyText.contains("baton_catalog_syncs_updated_total 1"))

        // The sandbox mounts the web shell's dev sign-in, for this machine's own requests carrying this run's secret
        // (printed at start, and in .baton/dev-sign-in-secret).
        let secretLine = try #require(
            server.stdout.split(separator: "\n").first { $0.contains("baton serve: dev sign-in secret ") })
        let secret = String(secretLine.split(separator: " ")[5])
        let file = try String(
            contentsOf: directory.appendingPathComponent(".baton/dev-sign-in-secret"), encoding: .utf8)
        #expect(file == secret + "\n")
        let secretFile = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent(".baton/dev-sign-in-secret").path)
        #expect((secretFile[.posixPermissions] as? Int) == 0o600)
        let withoutSecret = try await transport.send(
            OutboundRequest(method: .post, url: base + "/web/dev-token?user=alice"))
        #expect(withoutSecret.status == 403)
        let signIn = try await transport.send(
            OutboundRequest(
                method: .post, url: base + "/web/dev-token?user=alice", headers: ["x-baton-dev-secret": secret]))
        #expect(signIn.status == 200)
        let relayed = try await transport.send(
            OutboundRequest(
                method: .post, url: base + "/web/dev-token?user=alice",
                headers: ["x-forwarded-for": "203.0.113.9", "x-baton-dev-secret": secret]))
        #expect(relayed.status == 403)
        let via = try await transport.send(
            OutboundRequest(
                method: .post, url: base + "/web/dev-token?user=alice",
                headers: ["via": "1.1 nginx", "x-baton-dev-secret": secret]))
        #expect(via.status == 403)

        server.process.send(SIGTERM)
        #expect(try await server.finish() == 0)
        #expect(server.stdout.contains("stopped"))
    }

    /// `development.allowLoopbackHTTP` in a configuration file used to mount `POST /web/dev-token`, which signs a
    /// token for any user id; only `--sandbox` and `demo` mount it now.
    @Test func aDevelopmentConfigurationFileDoesNotMountTheDevSignIn() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = """
            {"development": {"allowLoopbackHTTP": true},
             "server": {"publicOrigin": "http://127.0.0.1:9"},
             "database": "sqlite:\(directory.path)/baton.sqlite",
             "chia": {"apiOrigin": "http://127.0.0.1:9", "assetOrigin": "http://127.0.0.1:9"},
             "privue": {"apiOrigin": "http://127.0.0.1:9", "returnURL": "https://app.example.com/kyc/done",
                        "workflows": ["merchant-onboarding"]},
             "bb": {"apiOrigin": "http://127.0.0.1:9", "returnURLs": {"https": "https://app.example.com/bb-callback"}}}
            """
        try Data(config.utf8).write(to: directory.appendingPathComponent("baton.json"))
        var port = Self.freePortRun()
        var server = try Child(
            ["serve", "--port", String(port)], in: directory, environment: DoctorCommandTests.environment)
        for _ in 0..<4 {
            let started = try await offCooperativePool { [process = server.process] in
                process.waitForOutput(timeout: 20) { $0.contains("ready") }
            }
            if started { break }
            _ = try await server.finish()
            guard server.stderr.contains("cannot listen") else { break }
            port = Self.freePortRun()
            server = try Child(
                ["serve", "--port", String(port)], in: directory, environment: DoctorCommandTests.environment)
        }
        try await Self.waitFor(server, "ready")
        let transport = CurlTransport()
        let signIn = try await transport.send(
            OutboundRequest(method: .post, url: "http://127.0.0.1:\(port)/web/dev-token?user=alice"))
        #expect(signIn.status == 404)
        let health = try await transport.send(OutboundRequest(url: "http://127.0.0.1:\(port)/healthz"))
        #expect(health.status == 200)
        server.process.send(SIGTERM)
        #expect(try await server.finish() == 0)
    }
}
