import BatonCore
import Foundation
import Testing

@testable import BatonSandbox

/// Webhook and provider bodies are written by the one JSON writer: these pin the bytes the sandbox's `JSONEncoder`
/// (sorted keys, slashes unescaped, RFC 3339 dates, `null` for unset BB members) wrote before, so a receiver
/// verifying signatures over them sees the same payloads.
@Suite struct WebhookEventTests {
    static let at = Date(timeIntervalSince1970: 1_767_225_600)

    @Test func theEnvelopeIsDataTimestampTypeWithSortedMembers() {
        let event = WebhookEvent(
            type: "verification.updated", timestamp: Self.at,
            data: PrivueVerificationBody(
                id: "ver_1", userRef: "u/1", workflow: "merchant-onboarding", status: "approved",
                journeyURL: "https://privue.example/acme/merchant-onboarding", createdAt: Self.at, updatedAt: Self.at
            ).json)
        #expect(
            String(decoding: event.body, as: UTF8.self)
                == #"{"data":{"created_at":"2026-01-01T00:00:00Z","id":"ver_1","#
                + #""journey_url":"https://privue.example/acme/merchant-onboarding","status":"approved","#
                + #""updated_at":"2026-01-01T00:00:00Z","user_ref":"u/1","workflow":"merchant-onboarding"},"#
                + #""timestamp":"2026-01-01T00:00:00Z","type":"verification.updated"}"#)
        #expect(event.id.hasPrefix("msg_"))
    }

    @Test func aBBSessionWritesItsUnsetMembersAsNull() {
        let session = BBConnectSession(
            sessionID: "cs_1", returnURL: "acmewallet://bb-callback", status: .pending, resultCode: nil,
            connectionID: nil, error: nil, createdAt: Self.at, expiresAt: Self.at, updatedAt: Self.at)
        #expect(
            BBConnectSessionBody(session).json.sortingKeys.rendered
                == #"{"connectionId":null,"createdAt":"2026-01-01T00:00:00Z","error":null,"#
                + #""expiresAt":"2026-01-01T00:00:00Z","resultCode":null,"returnUrl":"acmewallet://bb-callback","#
                + #""sessionId":"cs_1","status":"pending","updatedAt":"2026-01-01T00:00:00Z"}"#)
    }
}
