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
                ChiaFixtures.items(origin: "https://chia.example").first { $0.id == "cat_weight_care" })
            let assets = ["png_as_text", "jpeg", "html_as_png", "big_png", "to_other_host", "server_error"]
            let items = assets.map { asset in
                var item = template
                item.id = "cat_\(asset)"
                item.imageAssetID = asset
                return item
            }
            await harness.sandbox.chia.publish(items: items, lifetime: 3600)
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
