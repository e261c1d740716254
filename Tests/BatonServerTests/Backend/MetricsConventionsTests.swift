import BatonHTTP
import BatonHTTPTesting
import Foundation
import Testing

@testable import BatonServer

/// `/metrics` follows Prometheus conventions: `# HELP` and `# TYPE` for every family, and a request-duration
/// histogram per route pattern (`baton_http_request_duration_seconds`).
@Suite struct MetricsConventionsTests {
    /// The families of the samples in `text` that have no `# HELP` or no `# TYPE` line.
    static func familiesWithoutHelp(_ text: String) -> [String] {
        let lines = text.split(separator: "\n").map(String.init)
        let helped = Set(lines.filter { $0.hasPrefix("# HELP ") }.map { $0.split(separator: " ")[2] }.map(String.init))
        let typed = Set(lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }.map(String.init))
        var missing: [String] = []
        for line in lines where !line.hasPrefix("#") {
            var family = String(line.prefix { $0 != "{" && $0 != " " })
            for suffix in ["_bucket", "_sum", "_count"] where family.hasSuffix(suffix) {
                let base = String(family.dropLast(suffix.count))
                if typed.contains(base) { family = base }
            }
            if !helped.contains(family) || !typed.contains(family) { missing.append(family) }
        }
        return missing
    }

    @Test func everyFamilyOfTheBackendAndTheCatalogHasHelpAndType() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        try await fixture.backend.router.test(.inProcess) { client in
            _ = try await client.execute(.get, "/healthz")
            _ = try await client.execute(.post, "/v2/connect-sessions")
            let metrics = try await fixture.backend.adminRouter.test(.inProcess) {
                try await $0.execute(.get, "/metrics").bodyText
            }
            #expect(metrics.contains("baton_http_request_duration_seconds_count{route=\"/healthz\"} 1"))
            #expect(Self.familiesWithoutHelp(metrics) == [])
        }
        await fixture.close()
        let catalog = CatalogSyncStatus().metricsText(now: Date())
        #expect(catalog.contains("# HELP baton_catalog_publication_expired "))
        #expect(Self.familiesWithoutHelp(catalog) == [])
    }

    @Test func theRateLimitCounterHasHelpAndStartsAtZero() {
        let metrics = BackendMetrics()
        #expect(metrics.render().contains("\nbaton_rate_limited_total 0\n"))
        metrics.recordRateLimited()
        metrics.recordRateLimited()
        let text = metrics.render()
        #expect(
            text.contains(
                "# HELP baton_rate_limited_total Requests refused with 429 rate_limited by the per-user limit.\n"
                    + "# TYPE baton_rate_limited_total counter\nbaton_rate_limited_total 2\n"))
        #expect(Self.familiesWithoutHelp(text) == [])
    }

    @Test func theDurationHistogramIsCumulativePerRoute() {
        let metrics = BackendMetrics()
        metrics.recordRequestDuration(route: "/v2/catalog", seconds: 0.003)
        metrics.recordRequestDuration(route: "/v2/catalog", seconds: 0.2)
        metrics.recordRequestDuration(route: "/v2/catalog", seconds: 30)
        metrics.recordRequestDuration(route: "/healthz", seconds: 0.001)
        let text = metrics.render()
        #expect(text.contains("# TYPE baton_http_request_duration_seconds histogram\n"))
        let catalog = text.split(separator: "\n").filter { $0.contains(#"route="/v2/catalog""#) }.map(String.init)
        #expect(
            catalog == [
                #"baton_http_request_duration_seconds_bucket{route="/v2/catalog",le="0.005"} 1"#,
                #"baton_http_request_duration_seconds_bucket{route="/v2/catalog",le="0.01"} 1"#,
                #"baton_http_request_duration_seconds_bucket{route="/v2/catalog",le="0.025"} 1"#,
                #"baton_http_request_duration_seconds_bucket{route="/v2/catalog",le="0.05"} 1"#,
                #"baton_http_request_duration_seconds_bucket{route="/v2/catalog",le="0.1"} 1"#,
                #"baton_http_request_duration_seconds_bucket{route="/v2/catalog",le="0.25"} 2"#,
                #"baton_http_request_duration_seconds_bucket{route="/v2/catalog",le="0.5"} 2"#,
                #"baton_http_request_duration_seconds_bucket{route="/v2/catalog",le="1.0"} 2"#,
                #"baton_http_request_duration_seconds_bucket{route="/v2/catalog",le="2.5"} 2"#,
                #"baton_http_request_duration_seconds_bucket{route="/v2/catalog",le="5.0"} 2"#,
                #"baton_http_request_duration_seconds_bucket{route="/v2/catalog",le="10.0"} 2"#,
                #"baton_http_request_duration_seconds_bucket{route="/v2/catalog",le="+Inf"} 3"#,
                #"baton_http_request_duration_seconds_sum{route="/v2/catalog"} 30.203"#,
                #"baton_http_request_duration_seconds_count{route="/v2/catalog"} 3"#,
            ])
        #expect(text.contains(#"baton_http_request_duration_seconds_count{route="/healthz"} 1"#))
    }
}
