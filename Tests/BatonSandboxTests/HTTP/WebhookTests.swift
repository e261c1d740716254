import BatonCore
import BatonCrypto
import BatonHTTP
import Foundation
import Synchronization
import Testing

@testable import BatonSandbox

/// A webhook receiver on 127.0.0.1 that fails its first `failures` calls with 500, then answers 204.
final class WebhookReceiver: Sendable {
    struct Call: Sendable {
        let headers: HTTPHeaders
        let body: [UInt8]
    }

    private final class Log: Sendable {
        let calls = Mutex<[Call]>([])
    }

    private let log = Log()
    let server: HTTPServer

    init(failures: Int) throws {
        let log = self.log
        var router = Router()
        router.post("/hooks") { request in
            let count = log.calls.withLock { calls in
                calls.append(Call(headers: request.headers, body: request.body))
                return calls.count
            }
            return HTTPResponse(status: count <= failures ? 500 : 204)
        }
        server = try HTTPServer.start(router: router)
    }

    var url: String { server.url("/hooks") }
    var received: [Call] { log.calls.withLock { $0 } }
}

@Suite struct WebhookTests {
    /// Recomputes the Standard Webhooks signature of `call` with `secret` and compares.
    static func verifies(_ call: WebhookReceiver.Call, secret: String) throws -> Bool {
        let id = try #require(call.headers["webhook-id"])
        let timestamp = try #require(call.headers["webhook-timestamp"])
        let signature = try #require(call.headers["webhook-signature"])
        #expect(signature.hasPrefix("v1,"))
        let key = try #require(Data(base64Encoded: String(secret.dropFirst("whsec_".count))))
        let expected = HMACSHA256.authenticationCode(
            for: Array("\(id).\(timestamp).".utf8) + call.body, key: Secret(bytes: Array(key)))
        return signature == "v1," + Data(expected).base64EncodedString()
    }

    @Test func bbWebhookIsSignedAndRetriedWithBackoffUntil2xxUnderOneId() async throws {
        let receiver = try WebhookReceiver(failures: 2)
        try await Harness.run(configure: { $0.bbWebhookURL = receiver.url }) { harness in
            let created = try await harness.json(
                .post, harness.sandbox.bbOrigin + "/v2/connect-sessions", headers: harness.bbAuth,
                ["returnUrl": "acmewallet://bb-callback"])
            let sessionID = try #require(try object(created)["sessionId"] as? String)
            _ = try await harness.json(
                .post, harness.sandbox.bbOrigin + "/_sandbox/journeys/\(sessionID)/complete", ["resultCode": "Ok"])
            await harness.sandbox.waitForWebhooks()

            let calls = receiver.received
            #expect(calls.count == 3)
            #expect(Set(calls.compactMap { $0.headers["webhook-id"] }).count == 1)
            #expect(calls.allSatisfy { $0.headers["webhook-id"]?.hasPrefix("msg_") == true })
            #expect(calls.allSatisfy { $0.body == calls[0].body })
            for call in calls { #expect(try Self.verifies(call, secret: Harness.bbSecret)) }
            #expect(try !Self.verifies(calls[0], secret: Harness.privueSecret))
            #expect(
                calls[0].headers["webhook-timestamp"] == String(Int(harness.clock.now.timeIntervalSince1970)))
            #expect(harness.sleeps.all == [.seconds(1), .seconds(2)])

            let payload = try #require(try JSONSerialization.jsonObject(with: Data(calls[0].body)) as? [String: Any])
            #expect(payload["type"] as? String == "connect_session.updated")
            let data = try #require(payload["data"] as? [String: Any])
            #expect(data["sessionId"] as? String == sessionID)
            #expect(data["resultCode"] as? String == "Ok")

            let listing = try object(try await harness.send(.get, harness.sandbox.bbOrigin + "/_sandbox/webhooks"))
            let deliveries = try #require(listing["deliveries"] as? [[String: Any]])
            #expect(deliveries.first?["state"] as? String == "delivered")
            #expect((deliveries.first?["attempts"] as? [Any])?.count == 3)
        }
        await receiver.server.shutdown()
    }

    @Test func deliveryGivesUpAfterTheLastAttempt() async throws {
        let receiver = try WebhookReceiver(failures: 100)
        try await Harness.run(configure: { $0.privueWebhookURL = receiver.url }) { harness in
            _ = try await harness.json(
                .post, harness.sandbox.privueOrigin + "/verifications", headers: harness.privueAuth,
                ["user_ref": "u", "workflow": "kyc"])
            let id = try #require(try await harness.sandbox.privue.allVerifications().first?.id)
            _ = await harness.sandbox.privue.complete(verificationID: id, status: .approved)
            await harness.sandbox.waitForWebhooks()
            #expect(receiver.received.count == 4)
            #expect(harness.sleeps.all == [.seconds(1), .seconds(2), .seconds(4)])
            let delivery = try #require(harness.sandbox.privueWebhooks.deliveries().first)
            #expect(delivery.state == .failed)
            #expect(delivery.attempts.map(\.status) == [500, 500, 500, 500])
            for call in receiver.received { #expect(try Self.verifies(call, secret: Harness.privueSecret)) }
        }
        await receiver.server.shutdown()
    }

    @Test func privueJourneyRaisesVerificationUpdatedInOrder() async throws {
        let receiver = try WebhookReceiver(failures: 0)
        try await Harness.run { harness in
            let target = try await harness.json(
                .put, harness.sandbox.privueOrigin + "/_sandbox/webhooks/target", ["url": receiver.url])
            #expect(target.status == 204)
            let created = try await harness.json(
                .post, harness.sandbox.privueOrigin + "/verifications", headers: harness.privueAuth,
                ["user_ref": "u", "workflow": "kyc"])
            let id = try #require(try object(created)["id"] as? String)
            let handoff = try object(
                try await harness.send(
                    .post, harness.sandbox.privueOrigin + "/verifications/\(id)/handoff", headers: harness.privueAuth))
            let ticket = try #require((handoff["url"] as? String)?.split(separator: "=").last.map(String.init))
            _ = try await harness.json(.post, harness.sandbox.privueOrigin + "/acme/kyc/session", ["ticket": ticket])
            _ = try await harness.json(
                .post, harness.sandbox.privueOrigin + "/_sandbox/journeys/\(id)/complete", ["status": "needs_review"])
            await harness.sandbox.waitForWebhooks()
            let statuses = try receiver.received.map { call -> String? in
                let payload = try JSONSerialization.jsonObject(with: Data(call.body)) as? [String: Any]
                #expect(payload?["type"] as? String == "verification.updated")
                return (payload?["data"] as? [String: Any])?["status"] as? String
            }
            #expect(statuses == ["in_progress", "needs_review"])
            #expect(Set(receiver.received.compactMap { $0.headers["webhook-id"] }).count == 2)
        }
        await receiver.server.shutdown()
    }

    @Test func eventsWithoutATargetAreKeptNotSent() async throws {
        try await Harness.run { harness in
            _ = try await harness.json(
                .post, harness.sandbox.bbOrigin + "/v2/connect-sessions", headers: harness.bbAuth,
                ["returnUrl": "acmewallet://bb-callback"])
            let session = try #require(await harness.sandbox.bb.allSessions().first)
            _ = try await harness.sandbox.bb.complete(sessionID: session.sessionID, resultCode: .cancelled, error: nil)
            #expect(harness.sandbox.bbWebhooks.deliveries().map(\.state) == [.noTarget])
        }
    }
}
