import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// A provider whose clock runs ten minutes ahead of or behind the backend's: its deliveries are refused, counted
/// by reason in `/metrics`, and logged with the skew, so an operator reads a clock problem as one.
@Suite("Webhooks from a provider with a skewed clock")
struct WebhookClockSkewTests {
    @Test("a delivery 10 minutes off is refused, counted and logged with its skew", arguments: [600, -600])
    func skewedDeliveryIsRefusedCountedAndLogged(skew: Int) async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        try await fixture.run { api in
            let stamp = fixture.clock.now.addingTimeInterval(TimeInterval(skew))
            let body = WebhookReceiverTests.bbEvent("cs_1", status: "completed", resultCode: "Ok", at: stamp)
            let headers = WebhookReceiverTests.delivery(fixture, provider: .bb, body: body, timestamp: stamp)
            let response = try await api.send(.post, "/webhooks/bb", user: nil, headers: headers, body: body)
            #expect(response.status == 401)
            let metrics = try await api.admin("/metrics")
            #expect(
                metrics.bodyText.contains(
                    #"baton_webhook_verifications_total{provider="bb",result="timestamp_out_of_tolerance"} 1"#))
            let lines = fixture.logs.captured.filter { $0.contains(#""event":"webhook_rejected""#) }
            #expect(lines.count == 1)
            #expect(lines.first?.contains(#""reason":"timestamp_out_of_tolerance""#) == true)
            #expect(lines.first?.contains(#""skew_seconds":\#(skew)"#) == true)
            #expect(lines.first?.contains(#""provider":"bb""#) == true)
        }
    }

    @Test func aForgedDeliveryIsLoggedWithoutASkew() async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        try await fixture.run { api in
            let body = WebhookReceiverTests.bbEvent(
                "cs_1", status: "completed", resultCode: "Ok", at: fixture.clock.now)
            let headers = WebhookReceiverTests.delivery(fixture, provider: .bb, body: body, forge: true)
            let response = try await api.send(.post, "/webhooks/bb", user: nil, headers: headers, body: body)
            #expect(response.status == 401)
            let lines = fixture.logs.captured.filter { $0.contains(#""event":"webhook_rejected""#) }
            #expect(lines.count == 1)
            #expect(lines.first?.contains(#""reason":"signature_mismatch""#) == true)
            #expect(lines.first?.contains("skew_seconds") == false)
        }
    }
}
