import BatonCore
import BatonSandbox
import Foundation
import Testing

@testable import BatonServer

/// The sync against the sandbox's catalog with images from a misbehaving asset origin: an item is shown only
/// when its image was mirrored.
@Suite("Catalog sync with hostile images")
struct CatalogSyncImageTests {
    @Test func anItemWhoseImageCannotBeMirroredIsHidden() async throws {
        let hostile = try HostileAssetOrigin(key: nil)
        do {
            try await run(hostile)
            await hostile.shutdown()
        } catch {
            await hostile.shutdown()
            throw error
        }
    }

    private func run(_ hostile: HostileAssetOrigin) async throws {
        try await withCatalogHarness(maxImageBytes: 1024, assetOrigin: hostile.origin) { harness in
            let template = try #require(
                ChiaFixtures.items(neutralOrigin: "https://chia.example").first { $0.id == "cat_weight_care" })
            let assets = ["png_as_text", "jpeg", "html_as_png", "big_png", "to_other_host", "server_error"]
            let items = assets.map { asset in
                var item = template
                item.id = "cat_\(asset)"
                item.imageAssetID = asset
                return item
            }
            try await harness.sandbox.chia.publish(items: items, lifetime: 3600)
            let outcome = await harness.sync.syncOnce()
            #expect(outcome.isUpdated(items: 6, itemsWithImage: 2, imagesRejected: 4))

            let cards = try await harness.service.cards(for: AuthenticatedUser(id: "alice"), now: harness.clock.now)
            #expect(cards.map(\.id) == ["cat_png_as_text", "cat_jpeg"])
            #expect(cards.map { $0.image.url.string.hasSuffix(".png") } == [true, false])
            #expect(hostile.otherHostRequests == 0)
            // The sandbox's key went to the configured asset origin only.
            let key = harness.sandbox.configuration.chiaAPIKey.revealForUse()
            #expect(hostile.requests.count == 6 && hostile.requests.allSatisfy { $0.hasSuffix("Bearer \(key)") })
        }
    }
}

extension CatalogSyncOutcome {
    func isUpdated(items: Int, itemsWithImage: Int, imagesRejected: Int) -> Bool {
        guard case .updated(_, let count, let withImage, let rejected) = self else { return false }
        return (count, withImage, rejected) == (items, itemsWithImage, imagesRejected)
    }
}

/// Development against the sandbox: everything is plain http on 127.0.0.1, accepted only because the pipeline
/// was configured with `allowsLoopbackHTTP`.
@Suite("Catalog in development mode")
struct CatalogDevelopmentModeTests {
    @Test func loopbackHTTPIsAcceptedOnlyWhenTheConfigurationAllowsIt() async throws {
        try await withCatalogHarness(development: true) { harness in
            _ = await harness.sync.syncOnce()
            // The request runs in a task of its own: the pipeline passes its configuration's URLPolicy explicitly.
            let cards = try await Task.detached {
                try await harness.service.cards(for: AuthenticatedUser(id: "alice"), now: harness.clock.now)
            }.value
            #expect(cards.map(\.id) == ["cat_weight_care", "cat_skin_consult"])
            let image = try #require(cards.first?.image.url.string)
            #expect(image.hasPrefix(developmentPublicOrigin + "/assets/") && image.hasSuffix(".png"))
            guard case .neutralOnly(let neutral) = cards[1].handoff else {
                Issue.record("expected neutral_only")
                return
            }
            #expect(neutral.url.string == harness.sandbox.chiaOrigin + "/c/skin-consult")

            // The same stored publication, loaded by an instance not in development mode, shows nothing.
            let stored = try #require(try await harness.store.latestCatalogSnapshot())
            let strict = LoadedCatalog(
                body: try CatalogSnapshotBody.decode(stored.body), etag: stored.etag, fetchedAt: stored.fetchedAt,
                publicOrigin: developmentPublicOrigin)
            #expect(
                strict.projection.cards(
                    publication: strict.publication, evidence: nil, now: harness.clock.now,
                    policy: CatalogDecisionPolicy()
                ).isEmpty)
        }
    }
}
