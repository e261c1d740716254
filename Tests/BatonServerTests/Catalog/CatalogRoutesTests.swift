import BatonCore
import BatonCrypto
import BatonHTTP
import BatonHTTPTesting
import BatonSandbox
import Foundation
import Testing

@testable import BatonServer

/// `GET /v2/catalog` and `GET /assets/{file}` after a real sync against the sandbox, in-process and live: the app
/// receives exactly seed 000's projection and nothing more.
@Suite("Catalog routes")
struct CatalogRoutesTests {
    static let signingKey = Secret("catalog-routes-test-signing-key-0123456789")

    private func withRoutes(
        _ mode: HTTPTestMode, _ body: (HTTPTestClient, CatalogHarness, (String) -> HTTPHeaders) async throws -> Void
    ) async throws {
        try await withCatalogHarness { harness in
            _ = await harness.sync.syncOnce()
            let authenticator = SignedTokenAuthenticator(key: Self.signingKey)
            let clock = harness.clock
            var router = Router()
            router.group(
                "/v2", middleware: [AuthenticationMiddleware(authenticator: authenticator, now: { clock.now })]
            ) {
                $0.get("/catalog", harness.service.catalogResponse)
            }
            router.get("/assets/{file}", harness.service.assetResponse)
            let expiry = clock.now.addingTimeInterval(3600)
            try await router.test(mode) { client in
                try await body(client, harness) { user in
                    [
                        "authorization":
                            "Bearer \(authenticator.token(for: user, expiresAt: expiry, issuedAt: clock.now))"
                    ]
                }
            }
        }
    }

    private func catalog(_ client: HTTPTestClient, _ headers: HTTPHeaders) async throws -> [String: Any] {
        let response = try await client.execute(.get, "/v2/catalog", headers: headers)
        #expect(response.status == 200)
        #expect(response.headers["cache-control"] == "no-store")
        #expect(response.headers["content-type"] == "application/json")
        return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test(arguments: HTTPTestMode.allCases)
    func theAppReceivesExactlyTheProjectionAndNothingMore(_ mode: HTTPTestMode) async throws {
        try await withRoutes(mode) { client, harness, auth in
            let response = try await client.execute(.get, "/v2/catalog", headers: auth("alice"))
            let text = response.bodyText
            // Strict decoding: closed MobileHandoff, https image, complete block order.
            let decoded = try RFC3339.jsonDecoder().decode(CatalogResponseBody.self, from: Data(response.body))
            #expect(decoded.items.map(\.id) == ["cat_weight_care", "cat_skin_consult"])
            #expect(decoded.items.map(\.handoff.mode) == [.shareOrNeutral, .neutralOnly])

            let object = try await catalog(client, auth("alice"))
            #expect(Set(object.keys) == ["items"])
            let cards = try #require(object["items"] as? [[String: Any]])
            for card in cards {
                #expect(
                    Set(card.keys) == [
                        "id", "presentation_contract", "title", "summary", "priceText", "image", "handoff",
                    ])
                #expect(Set((card["presentation_contract"] as? [String: Any] ?? [:]).keys) == ["block_order"])
                let image = try #require(card["image"] as? [String: Any])
                #expect(Set(image.keys) == ["url", "alt"])
                let url = try #require(image["url"] as? String)
                #expect(url.wholeMatch(of: /https:\/\/partner\.example\/assets\/[0-9a-f]{64}\.(png|jpg|webp)/) != nil)
                let handoff = try #require(card["handoff"] as? [String: Any])
                switch handoff["mode"] as? String {
                case "neutral_only":
                    #expect(Set(handoff.keys) == ["mode", "heading", "body", "actionLabel", "url"])
                    #expect(handoff["actionLabel"] as? String == "Continue to Chia")
                case "share_or_neutral":
                    #expect(
                        Set(handoff.keys) == [
                            "mode", "heading", "body", "recipient", "dataShared", "purpose", "compensationDisclosure",
                            "policyUrls", "primary", "secondary",
                        ])
                    let primary = try #require(handoff["primary"] as? [String: Any])
                    #expect(Set(primary.keys) == ["actionLabel", "sessionCreationPath", "disclosureVersion"])
                    #expect(primary["sessionCreationPath"] as? String == "/v2/handoff-sessions")
                    #expect(Set((handoff["secondary"] as? [String: Any] ?? [:]).keys) == ["actionLabel", "url"])
                default:
                    Issue.record("unexpected mode \(handoff["mode"] ?? "none")")
                }
            }
            // No raw catalog field, asset id, Chia asset URL, key or status reaches the app.
            let key = harness.sandbox.configuration.chiaAPIKey.revealForUse()
            for forbidden in [
                key, "img_", "/v2/assets", harness.sandbox.chiaOrigin, "127.0.0.1", "imageAssetId", "mirroredImageUrl",
                "regions", "sharingAllowed", "\"status\"", "publication", "expiresAt", "neutralUrl", "Bearer",
            ] {
                #expect(!text.contains(forbidden), "\(forbidden)")
            }
        }
    }

    @Test func eachUserSeesTheDecisionTheirEvidenceAllows() async throws {
        try await withRoutes(.inProcess) { client, _, auth in
            func modes(_ user: String) async throws -> [String] {
                let object = try await catalog(client, auth(user))
                return (object["items"] as? [[String: Any]] ?? []).map { card in
                    "\(card["id"] ?? "") \((card["handoff"] as? [String: Any])?["mode"] ?? "")"
                }
            }
            #expect(
                try await modes("user_gb") == ["cat_weight_care share_or_neutral", "cat_skin_consult neutral_only"])
            #expect(try await modes("user_de") == ["cat_sleep_clinic share_or_neutral"])
            #expect(
                try await modes("user_suspended") == ["cat_weight_care neutral_only", "cat_skin_consult neutral_only"])
            #expect(try await modes("user_region_jp") == [])
            // Evidence that cannot be trusted fails safe before the region rule: every renderable item, no sharing.
            let failSafe = [
                "cat_weight_care neutral_only", "cat_skin_consult neutral_only", "cat_sleep_clinic neutral_only",
            ]
            for user in ["user_signed_out", "user_stale", "user_future", "user_schema_v9", "user_no_evidence"] {
                #expect(try await modes(user) == failSafe, "\(user)")
            }
            let anonymous = try await client.execute(.get, "/v2/catalog")
            #expect(anonymous.status == 401)
        }
    }

    /// A just-started instance (no publication loaded yet) must not answer a share with the definitive "not offered":
    /// a retry after a crash would record `409` for a key whose journey already exists at Chia.
    @Test func theShareCheckIsRetryableUntilACatalogIsLoaded() async throws {
        try await withCatalogHarness { harness in
            let error = await #expect(throws: HTTPError.self) {
                try await harness.service.handoff(
                    for: AuthenticatedUser(id: "alice"), catalogItemID: "cat_weight_care", now: harness.clock.now)
            }
            #expect(error?.status == 503)
            #expect(error?.code == "catalog_unavailable")
            #expect(error?.headers["retry-after"] == "1")
        }
    }

    /// Before the first publication is loaded, the catalog is not known to be empty: `503 catalog_unavailable` with
    /// `Retry-After` (as shares answer), never `200 {"items":[]}`.
    @Test func theCatalogIsUnavailableUntilAPublicationIsLoaded() async throws {
        try await withCatalogHarness { harness in
            let authenticator = SignedTokenAuthenticator(key: Self.signingKey)
            let clock = harness.clock
            var router = Router()
            router.use(AuthenticationMiddleware(authenticator: authenticator, now: { clock.now }))
            router.get("/v2/catalog", harness.service.catalogResponse)
            let headers: HTTPHeaders = [
                "authorization":
                    "Bearer \(authenticator.token(for: "alice", expiresAt: clock.now + 3600, issuedAt: clock.now))"
            ]
            try await router.test(.inProcess) { client in
                let early = try await client.execute(.get, "/v2/catalog", headers: headers)
                #expect(early.status == 503)
                #expect(early.headers["retry-after"] == "1")
                #expect(early.bodyText.contains(#""code":"catalog_unavailable""#))
                _ = await harness.sync.syncOnce()
                #expect(try await client.execute(.get, "/v2/catalog", headers: headers).status == 200)
            }
        }
    }

    @Test func theShareCheckUsesTheSameDecision() async throws {
        try await withCatalogHarness { harness in
            _ = await harness.sync.syncOnce()
            let now = harness.clock.now
            let service = harness.service
            let alice = AuthenticatedUser(id: "alice")
            guard
                case .shareOrNeutral(let share) = try await service.handoff(
                    for: alice, catalogItemID: "cat_weight_care", now: now)
            else {
                Issue.record("expected share_or_neutral")
                return
            }
            #expect(share.disclosureVersion == ChiaFixtures.disclosureVersion)
            #expect(
                try await service.handoff(for: alice, catalogItemID: "cat_skin_consult", now: now)?.mode == .neutralOnly
            )
            #expect(try await service.handoff(for: alice, catalogItemID: "cat_sleep_clinic", now: now) == nil)
            #expect(try await service.handoff(for: alice, catalogItemID: "cat_hair_care", now: now) == nil)
            #expect(try await service.handoff(for: alice, catalogItemID: "cat_unknown", now: now) == nil)
            let suspended = AuthenticatedUser(id: "user_suspended")
            #expect(
                try await service.handoff(for: suspended, catalogItemID: "cat_weight_care", now: now)?.mode
                    == .neutralOnly)
        }
    }

    @Test(arguments: HTTPTestMode.allCases)
    func mirroredImagesAreServedImmutableUnderTheirNeutralName(_ mode: HTTPTestMode) async throws {
        try await withRoutes(mode) { client, harness, auth in
            let decoded = try RFC3339.jsonDecoder().decode(
                CatalogResponseBody.self,
                from: Data(try await client.execute(.get, "/v2/catalog", headers: auth("alice")).body))
            let path = try #require(decoded.items.first?.image.url.string.dropFirst(testPublicOrigin.count))
            let response = try await client.execute(.get, String(path))
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "image/png")
            #expect(response.headers["cache-control"] == "public, max-age=31536000, immutable")
            #expect(response.headers["x-content-type-options"] == "nosniff")
            let sha = String(path.dropFirst("/assets/".count).prefix(64))
            #expect(SHA256.hexDigest(response.body) == sha)
            #expect(response.headers["etag"] == "\"\(sha)\"")
            let revalidated = try await client.execute(.get, String(path), headers: ["if-none-match": "\"\(sha)\""])
            #expect(revalidated.status == 304 && revalidated.body.isEmpty)
            let head = try await client.execute(.head, String(path))
            #expect(head.status == 200 && head.body.isEmpty)

            for missing in [
                "/assets/\(sha).jpg", "/assets/\(sha.uppercased()).png",
                "/assets/\(String(repeating: "0", count: 64)).png",
                "/assets/\(sha)", "/assets/\(sha).png.png", "/assets/x.png",
            ] {
                #expect(try await client.execute(.get, missing).status == 404, "\(missing)")
            }
            _ = harness
        }
    }

    @Test func theMetricsTextCarriesProgressAndCounters() async throws {
        try await withCatalogHarness { harness in
            _ = await harness.sync.syncOnce()
            let text = harness.sync.status.metricsText(now: harness.clock.now)
            for line in [
                "baton_catalog_syncs_updated_total 1", "baton_catalog_items 5", "baton_catalog_items_with_image 4",
                "baton_catalog_images_rejected_total 1", "baton_catalog_sync_in_progress 0",
                "baton_catalog_publication_expired 0", "baton_catalog_sync_leader 1",
                "# TYPE baton_catalog_syncs_failed_total counter",
            ] {
                #expect(text.contains(line + "\n"), "\(line)")
            }
        }
    }
}
