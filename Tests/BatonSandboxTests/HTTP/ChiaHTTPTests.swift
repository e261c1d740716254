import BatonCore
import BatonHTTP
import Foundation
import Testing

@testable import BatonSandbox

@Suite struct ChiaHTTPTests {
    static var body: [String: Any] {
        [
            "catalogItemId": "cat_weight_care", "disclosureVersion": ChiaFixtures.disclosureVersion, "affirmed": true,
            "affirmedAt": "2025-06-15T10:00:00Z",
        ]
    }

    @Test func catalogHasAnETagAndAnswers304WhenUnchanged() async throws {
        try await Harness.run { harness in
            let url = harness.sandbox.chiaOrigin + "/v2/catalog"
            let first = try await harness.send(.get, url, headers: harness.chiaAuth)
            #expect(first.status == 200)
            #expect(first.headers["content-type"] == "application/json")
            let etag = try #require(first.headers["etag"])
            let publication = try RFC3339.jsonDecoder().decode(CatalogPublication.self, from: Data(first.body))
            #expect(publication.items.map(\.id).contains("cat_weight_care"))
            #expect(publication.expiresAt == harness.clock.now.addingTimeInterval(24 * 60 * 60))
            #expect(
                publication.items.allSatisfy {
                    $0.neutralURL?.hasPrefix(harness.sandbox.chiaOrigin + "/c/") == true
                })

            var conditional = harness.chiaAuth
            conditional.set("if-none-match", etag)
            let unchanged = try await harness.send(.get, url, headers: conditional)
            #expect(unchanged.status == 304)
            #expect(unchanged.body.isEmpty)
            #expect(unchanged.headers["etag"] == etag)

            harness.clock.advance(by: 24 * 60 * 60)
            let renewed = try await harness.send(.get, url, headers: conditional)
            #expect(renewed.status == 200)
            #expect(renewed.headers["etag"] != etag)
        }
    }

    @Test func assetsAreRealImagesBehindTheKey() async throws {
        try await Harness.run { harness in
            let png = try await harness.send(
                .get, harness.sandbox.chiaOrigin + "/v2/assets/img_weight_care", headers: harness.chiaAuth)
            #expect(png.status == 200)
            #expect(png.headers["content-type"] == "image/png")
            #expect(png.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            let jpeg = try await harness.send(
                .get, harness.sandbox.chiaOrigin + "/v2/assets/img_skin_consult", headers: harness.chiaAuth)
            #expect(jpeg.headers["content-type"] == "image/jpeg")
            #expect(jpeg.body.starts(with: [0xFF, 0xD8, 0xFF]))
            let missing = try await harness.send(
                .get, harness.sandbox.chiaOrigin + "/v2/assets/\(ChiaFixtures.missingImageAssetID)",
                headers: harness.chiaAuth)
            #expect(missing.status == 404)
            #expect(try object(missing)["code"] as? String == "asset_not_found")
        }
    }

    @Test func handoffSessionsReplayPerKeyAndRefuseAReusedKey() async throws {
        try await Harness.run { harness in
            let url = harness.sandbox.chiaOrigin + "/v2/handoff-sessions"
            var headers = harness.chiaAuth
            let key = IdempotencyKey.random().rawValue
            headers.set("idempotency-key", key)
            let created = try await harness.json(.post, url, headers: headers, Self.body)
            #expect(created.status == 201)
            #expect(created.headers["cache-control"] == "no-store")
            #expect(created.headers["idempotent-replayed"] == nil)
            let session = try object(created)
            let journey = try #require(session["url"] as? String)
            #expect(journey.hasPrefix(harness.sandbox.chiaOrigin + "/h/phs_"))
            #expect(
                session["expiresAt"] as? String
                    == RFC3339.string(from: harness.clock.now.addingTimeInterval(15 * 60)))

            let replay = try await harness.json(.post, url, headers: headers, Self.body)
            #expect(replay.status == 201)
            #expect(replay.headers["idempotent-replayed"] == "true")
            #expect(try object(replay)["url"] as? String == journey)

            var changed = Self.body
            changed["affirmedAt"] = "2025-06-15T10:00:05Z"
            let reused = try await harness.json(.post, url, headers: headers, changed)
            #expect(reused.status == 422)
            #expect(try object(reused)["code"] as? String == "idempotency_key_reused")

            let state = try await harness.state(harness.sandbox.chiaOrigin)
            let sessions = try #require(state["handoffSessions"] as? [[String: Any]])
            #expect(sessions.count == 1)
            #expect(sessions.first?["idempotencyKey"] as? String == key)
            let stateText = String(decoding: try JSONSerialization.data(withJSONObject: state), as: UTF8.self)
            #expect(!stateText.contains("phs_"))

            harness.clock.advance(by: 15 * 60)
            let late = try await harness.json(.post, url, headers: headers, Self.body)
            #expect(late.status == 410)
        }
    }

    @Test func handoffRequestsAreValidated() async throws {
        try await Harness.run { harness in
            let url = harness.sandbox.chiaOrigin + "/v2/handoff-sessions"
            let noKey = try await harness.json(.post, url, headers: harness.chiaAuth, Self.body)
            #expect(noKey.status == 400)
            #expect(try object(noKey)["code"] as? String == "idempotency_key_invalid")
            var headers = harness.chiaAuth
            headers.set("idempotency-key", "not-a-uuid")
            #expect(try await harness.json(.post, url, headers: headers, Self.body).status == 400)
            headers.set("idempotency-key", IdempotencyKey.random().rawValue)
            var notAffirmed = Self.body
            notAffirmed["affirmed"] = false
            let invalid = try await harness.json(.post, url, headers: headers, notAffirmed)
            #expect(try object(invalid)["code"] as? String == "invalid_request")
            var neutralOnly = Self.body
            neutralOnly["catalogItemId"] = "cat_skin_consult"
            let refused = try await harness.json(.post, url, headers: headers, neutralOnly)
            #expect(refused.status == 409)
            #expect(try object(refused)["code"] as? String == "sharing_not_allowed")
        }
    }

    @Test func journeyPageIsCoBrandedWhileValidThenGeneric() async throws {
        try await Harness.run { harness in
            var headers = harness.chiaAuth
            headers.set("idempotency-key", IdempotencyKey.random().rawValue)
            let created = try await harness.json(
                .post, harness.sandbox.chiaOrigin + "/v2/handoff-sessions", headers: headers, Self.body)
            let journey = try #require(try object(created)["url"] as? String)
            let page = try await harness.send(.get, journey)
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.bodyText.contains("data-page=\"chia-journey\""))
            #expect(page.bodyText.contains("Weight care programme"))

            let unknown = try await harness.send(.get, harness.sandbox.chiaOrigin + "/h/phs_unknown")
            #expect(unknown.status == 200)
            #expect(unknown.bodyText.contains("data-page=\"chia-generic\""))

            harness.clock.advance(by: 15 * 60)
            let expired = try await harness.send(.get, journey)
            #expect(expired.status == 200)
            #expect(expired.bodyText.contains("data-page=\"chia-generic\""))

            let neutral = try await harness.send(.get, harness.sandbox.chiaOrigin + "/c/skin-consult")
            #expect(neutral.status == 200)
            #expect(neutral.bodyText.contains("data-page=\"chia-neutral\""))
            #expect(try await harness.send(.get, harness.sandbox.chiaOrigin + "/c/nope").status == 404)

            let log = try await harness.requests(harness.sandbox.chiaOrigin)
            let paths = log.compactMap { $0["path"] as? String }
            #expect(paths.contains("/h/{phs}"))
            #expect(!paths.contains { $0.contains("phs_") })
        }
    }
}
