import BatonCore
import BatonHTTP
import BatonHTTPTesting
import Foundation
import Testing

@testable import BatonServer

/// Well-known files, health, readiness, metrics, auth and ownership.
@Suite("Operations and well-known routes")
struct OperationsTests {
    @Test func appleAppSiteAssociationListsApplinksAndWebcredentials() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        try await fixture.run(.live) { api in
            let response = try await api.send(.get, "/.well-known/apple-app-site-association", user: nil)
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            let body = jsonObject(response)
            let applinks = try #require(body["applinks"] as? [String: Any])
            let details = try #require(applinks["details"] as? [[String: Any]])
            #expect(details.first?["appIDs"] as? [String] == ["ABCDE12345.com.example.wallet"])
            let paths = (details.first?["components"] as? [[String: String]])?.compactMap { $0["/"] }
            #expect(paths == ["/bb-callback", "/kyc/done"])
            #expect((body["webcredentials"] as? [String: [String]])?["apps"] == ["ABCDE12345.com.example.wallet"])
        }
    }

    @Test func assetLinksNameThePackageAndFingerprints() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        try await fixture.run { api in
            let response = try await api.send(.get, "/.well-known/assetlinks.json", user: nil)
            #expect(response.headers["content-type"] == "application/json")
            let statements = try #require(
                try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]])
            let target = try #require(statements.first?["target"] as? [String: Any])
            #expect(target["package_name"] as? String == "com.example.wallet")
            #expect((target["sha256_cert_fingerprints"] as? [String])?.count == 1)
            #expect(statements.first?["relation"] as? [String] == ["delegate_permission/common.handle_all_urls"])
        }
    }

    @Test(arguments: BackendEngines.available)
    func healthReadinessAndMetrics(engine: StoreEngine) async throws {
        let fixture = try await BackendFixture.make(engine)
        try await fixture.backend.router.test(.inProcess) { client in
            #expect(try await client.execute(.get, "/healthz").status == 200)
            #expect(try await client.execute(.get, "/readyz").status == 200)
            _ = try await client.execute(.post, "/v2/connect-sessions")
            let metrics = try await fixture.backend.adminRouter.test(.inProcess) {
                try await $0.execute(.get, "/metrics")
            }
            #expect(metrics.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(
                metrics.bodyText.contains(#"baton_http_requests_total{route="/v2/connect-sessions",status="401"} 1"#))
            #expect(metrics.bodyText.contains("# TYPE baton_provider_calls_total counter"))
            await fixture.store.close()
            #expect(try await client.execute(.get, "/readyz").status == 503)
        }
        await fixture.close()
    }

    /// `/metrics` (whose refusal counters by reason would tell a forger which check failed) and the detailed
    /// readiness body are only on the admin listener, which binds loopback by default.
    @Test func metricsAndDetailedReadinessAreOnlyOnTheAdminListener() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        #expect(fixture.configuration.server.adminHost == "127.0.0.1")
        let running = try fixture.backend.start(host: "127.0.0.1", port: 0)
        let transport = CurlTransport()
        let open = try await transport.send(OutboundRequest(url: running.server.url("/metrics")))
        #expect(open.status == 404)
        #expect(!open.bodyText.contains("baton_auth_token_refusals_total"))
        #expect(try await transport.send(OutboundRequest(url: running.server.url("/readyz"))).bodyText == "ready\n")
        #expect(try await transport.send(OutboundRequest(url: running.server.url("/healthz"))).status == 200)
        #expect(running.admin.port != running.server.port)
        #expect(running.admin.host == "127.0.0.1")
        let metrics = try await transport.send(OutboundRequest(url: running.admin.url("/metrics")))
        #expect(metrics.status == 200)
        #expect(metrics.bodyText.contains("baton_auth_token_refusals_total"))
        let ready = try await transport.send(OutboundRequest(url: running.admin.url("/readyz")))
        #expect(ready.bodyText == "ready\nstore: ok\ncatalog: publication loaded\n")
        await running.shutdown(grace: .seconds(1))
        await fixture.close()
    }

    @Test func theAdminPortDefaultsToLoopbackAndMustDifferFromThePublicPort() throws {
        let environment = TestConfiguration.environment
        let file = #"""
            {"server": {"publicOrigin": "https://p.example", "port": 8080, "adminPort": 8080},
             "chia": {"apiOrigin": "https://c.example", "assetOrigin": "https://c.example"},
             "privue": {"apiOrigin": "https://v.example", "returnURL": "https://app.example/kyc", "workflows": ["w"]},
             "bb": {"apiOrigin": "https://b.example", "returnURLs": {"https": "https://app.example/cb"}}}
            """#
        #expect(throws: ConfigurationErrors.self) {
            try BackendConfiguration.load(json: Data(file.utf8), environment: environment)
        }
        let defaults = try BackendConfiguration.load(
            json: Data(file.replacingOccurrences(of: #", "adminPort": 8080"#, with: "").utf8),
            environment: environment)
        #expect(defaults.server.adminHost == "127.0.0.1")
        #expect(defaults.server.adminPort == 9464)
    }

    @Test func everyAppRouteRequiresAValidToken() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        try await fixture.run { api in
            for (method, path) in [
                (HTTPMethod.post, "/v2/handoff-sessions"), (.post, "/v2/verification-handoffs"),
                (.get, "/v2/verifications/merchant-onboarding"), (.post, "/v2/connect-sessions"),
                (.get, "/v2/connect-sessions/cs_1"),
            ] {
                #expect(try await api.send(method, path, user: nil).status == 401)
                let forged = try await api.send(method, path, user: nil, headers: ["authorization": "Bearer bt1.x.y"])
                #expect(forged.status == 401)
            }
            #expect(fixture.transport.requests.isEmpty)
        }
    }

    @Test func connectSessionCallbackKindsAreChecked() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        try await fixture.run { api in
            for body in [#"{"callback":"webview"}"#, #"{}"#, #"{"callback":"https","x":1}"#, "nope"] {
                let response = try await api.send(.post, "/v2/connect-sessions", body: body)
                #expect(response.status == 400)
            }
            #expect(fixture.transport.requests.isEmpty)
        }
    }
}
