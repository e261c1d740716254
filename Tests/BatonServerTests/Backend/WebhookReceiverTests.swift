import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// `POST /webhooks/privue|bb`: verified on the raw body, deduplicated, durable before the 2xx, and nothing changes
/// on a forged, stale, replayed or malformed delivery.
@Suite("Webhook receivers")
struct WebhookReceiverTests {
    static func delivery(
        _ fixture: BackendFixture, provider: ProviderName, id: String = "msg_" + UUID().uuidString, body: String,
        timestamp: Date? = nil, forge: Bool = false
    ) -> HTTPHeaders {
        let secret =
            provider == .bb ? fixture.configuration.bb.webhookSecret : fixture.configuration.privue.webhookSecret
        let stamp = String(Int((timestamp ?? fixture.clock.now).timeIntervalSince1970))
        var signature = StandardWebhookVerifier(key: secret).signature(id: id, timestamp: stamp, body: Array(body.utf8))
        if forge {
            signature = StandardWebhookVerifier(key: Secret("forged-key")).signature(
                id: id, timestamp: stamp, body: Array(body.utf8))
        }
        return ["webhook-id": id, "webhook-timestamp": stamp, "webhook-signature": signature]
    }

    static func bbEvent(_ session: String, status: String, resultCode: String?, at date: Date) -> String {
        let result = resultCode.map { "\"\($0)\"" } ?? "null"
        return """
            {"type":"connect_session.updated","timestamp":"\(RFC3339.string(from: date))","data":{"sessionId":"\(session)",\
            "status":"\(status)","resultCode":\(result),"connectionId":null,"error":null,\
            "returnUrl":"https://app.example.com/bb-callback","createdAt":"\(RFC3339.string(from: date))",\
            "expiresAt":"\(RFC3339.string(from: date))","updatedAt":"\(RFC3339.string(from: date))"}}
            """
    }

    func seed(_ fixture: BackendFixture) async throws {
        let created = try await fixture.store.createConnectSession(
            ConnectSessionRecord(
                id: "cs_1", user: "alice", status: .pending, createdAt: fixture.clock.now,
                updatedAt: Date(timeIntervalSince1970: 0)))
        #expect(created)
    }

    func status(_ fixture: BackendFixture) async throws -> String? {
        try await fixture.store.connectSession(id: "cs_1", user: "alice")?.status.rawValue
    }

    func unprocessed(_ fixture: BackendFixture) async throws -> Int {
        try await fixture.store.claimWebhookEvents(
            owner: "probe", leaseUntil: fixture.clock.now.addingTimeInterval(1), now: fixture.clock.now, limit: 10
        ).count
    }

    @Test(
        "a verified delivery is stored, applied, and a redelivery changes nothing", arguments: BackendEngines.available)
    func acceptedOnceThenDuplicate(engine: StoreEngine) async throws {
        let fixture = try await BackendFixture.make(engine)
        try await seed(fixture)
        try await fixture.run { api in
            let body = Self.bbEvent("cs_1", status: "completed", resultCode: "Ok", at: fixture.clock.now)
            let headers = Self.delivery(fixture, provider: .bb, id: "msg_1", body: body)
            let first = try await api.send(.post, "/webhooks/bb", user: nil, headers: headers, body: body)
            #expect(first.status == 200)
            #expect(try await status(fixture) == "ok")

            // A later, conflicting event under the same webhook-id is a replay: not applied again.
            let replayedBody = Self.bbEvent(
                "cs_1", status: "completed", resultCode: "Error", at: fixture.clock.now.addingTimeInterval(5))
            let replayed = try await api.send(
                .post, "/webhooks/bb", user: nil,
                headers: Self.delivery(fixture, provider: .bb, id: "msg_1", body: replayedBody), body: replayedBody)
            #expect(replayed.status == 200)
            #expect(jsonObject(replayed)["status"] as? String == "duplicate")
            #expect(try await status(fixture) == "ok")
            #expect(try await unprocessed(fixture) == 0)
        }
    }

    enum Bad: String, CaseIterable, Sendable {
        case forged, stale, future, missingHeaders, tamperedBody, malformedJSON, unknownStatus
    }

    @Test(
        "forged, stale, future, unsigned, tampered or malformed deliveries are refused and change nothing",
        arguments: BackendEngines.available.flatMap { engine in Bad.allCases.map { (engine, $0) } })
    func refused(engine: StoreEngine, bad: Bad) async throws {
        let fixture = try await BackendFixture.make(engine)
        try await seed(fixture)
        try await fixture.run { api in
            let now = fixture.clock.now
            var body = Self.bbEvent("cs_1", status: "completed", resultCode: "Ok", at: now)
            var headers: HTTPHeaders
            switch bad {
            case .forged: headers = Self.delivery(fixture, provider: .bb, body: body, forge: true)
            case .stale: headers = Self.delivery(fixture, provider: .bb, body: body, timestamp: now - 301)
            case .future: headers = Self.delivery(fixture, provider: .bb, body: body, timestamp: now + 301)
            case .missingHeaders: headers = [:]
            case .tamperedBody:
                headers = Self.delivery(fixture, provider: .bb, body: body)
                body = body.replacingOccurrences(of: "Ok", with: "Error")
            case .malformedJSON:
                body = "{\"type\":\"connect_session.updated\""
                headers = Self.delivery(fixture, provider: .bb, body: body)
            case .unknownStatus:
                body = body.replacingOccurrences(of: "\"completed\"", with: "\"exploded\"")
                headers = Self.delivery(fixture, provider: .bb, body: body)
            }
            // Signed for BB, sent to Privue: the other provider's secret does not verify it either.
            let response = try await api.send(.post, "/webhooks/bb", user: nil, headers: headers, body: body)
            #expect([400, 401].contains(response.status))
            #expect(try await status(fixture) == "pending")
            #expect(try await unprocessed(fixture) == 0)
            let crossed = try await api.send(
                .post, "/webhooks/privue", user: nil, headers: Self.delivery(fixture, provider: .bb, body: body),
                body: body)
            #expect(crossed.status == 401)
        }
    }

    /// Found by the api-contract fuzzing once its hook signed generated bodies: an unknown event type whose `data` is
    /// not an object was stored (and a redelivery of its id answered `duplicate`) instead of refused.
    @Test(arguments: [#"[null, null]"#, "7", #""text""#, "null"])
    func anEnvelopeWhoseDataIsNotAnObjectIsMalformedWhateverItsType(data: String) async throws {
        let fixture = try await BackendFixture.make(.sqlite)
        try await fixture.run { api in
            for type in ["some.future_event", "connect_session.updated"] {
                let body = #"{"type":"\#(type)","timestamp":"2026-03-01T12:00:00Z","data":\#(data)}"#
                let response = try await api.send(
                    .post, "/webhooks/bb", user: nil, headers: Self.delivery(fixture, provider: .bb, body: body),
                    body: body)
                #expect(response.status == 400, "\(type) \(data)")
            }
        }
    }

    @Test("an older event never rolls a newer status back", arguments: BackendEngines.available)
    func outOfOrder(engine: StoreEngine) async throws {
        let fixture = try await BackendFixture.make(engine)
        try await seed(fixture)
        try await fixture.run { api in
            let now = fixture.clock.now
            let newer = Self.bbEvent("cs_1", status: "completed", resultCode: "Cancelled", at: now)
            let older = Self.bbEvent("cs_1", status: "pending", resultCode: nil, at: now - 60)
            for body in [newer, older] {
                let response = try await api.send(
                    .post, "/webhooks/bb", user: nil, headers: Self.delivery(fixture, provider: .bb, body: body),
                    body: body)
                #expect(response.status == 200)
            }
            #expect(try await status(fixture) == "cancelled")
        }
    }

    @Test("an event stored before a crash is applied by the maintenance drain", arguments: BackendEngines.available)
    func drainAfterCrash(engine: StoreEngine) async throws {
        let fixture = try await BackendFixture.make(engine)
        try await seed(fixture)
        let payload = WebhookEventProcessor.BBUpdate(
            sessionId: "cs_1", status: .ok, connectionId: "conn_1", error: nil,
            updatedAt: RFC3339.string(from: fixture.clock.now)
        ).jsonBody
        #expect(
            try await fixture.store.recordWebhookEvent(
                WebhookEventRecord(
                    provider: .bb, webhookID: "msg_crash", eventType: "connect_session.updated", payload: payload,
                    receivedAt: fixture.clock.now)))
        try await fixture.backend.runMaintenance()
        #expect(try await fixture.store.connectSession(id: "cs_1", user: "alice")?.connectionID == "conn_1")
        #expect(try await unprocessed(fixture) == 0)
        await fixture.close()
    }
}
