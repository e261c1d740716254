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
            let metrics = try await client.execute(.get, "/metrics")
            #expect(metrics.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(
                metrics.bodyText.contains(#"baton_http_requests_total{route="/v2/connect-sessions",status="401"} 1"#))
            #expect(metrics.bodyText.contains("# TYPE baton_provider_calls_total counter"))
            await fixture.store.close()
            #expect(try await client.execute(.get, "/readyz").status == 503)
        }
        await fixture.close()
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
