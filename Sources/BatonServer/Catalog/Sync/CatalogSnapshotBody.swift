import BatonCore
import Foundation

/// What the sync keeps in ``CatalogSnapshot/body``: the last good publication as decoded from Chia (only the
/// fields Baton knows, so no unknown raw field can reach the app) and the images mirrored for it, by asset id.
///
/// An image mirrored for an earlier publication is not carried over: each publication's images are checked anew.
package struct CatalogSnapshotBody: Sendable, Codable, Equatable {
    /// The format of this envelope.
    var format = 1
    /// The publication, every `mirroredImageUrl` cleared (the URL is made from the public origin at load).
    var publication: CatalogPublication
    /// The image mirrored for each asset id of the publication that could be mirrored.
    var images: [String: MirroredImage]

    init(publication: CatalogPublication, images: [String: MirroredImage]) {
        var publication = publication
        for index in publication.items.indices { publication.items[index].mirroredImageURL = nil }
        self.publication = publication
        self.images = images
    }

    func encoded() throws -> [UInt8] { Array(try RFC3339.jsonEncoder().encode(self)) }

    package static func decode(_ bytes: [UInt8]) throws -> CatalogSnapshotBody {
        try RFC3339.jsonDecoder().decode(CatalogSnapshotBody.self, from: Data(bytes))
    }

    /// The asset ids of items that name an image not mirrored yet.
    var unmirroredAssetIDs: [String] {
        var seen = Set<String>()
        return publication.items.compactMap(\.imageAssetID).filter {
            !images.keys.contains($0) && seen.insert($0).inserted
        }
    }
}

/// The publication the projection reads: every item whose image is mirrored carries its neutral URL
/// (`<publicOrigin>/assets/<sha256>.<ext>`); an item whose image is not mirrored has none, so it is hidden.
public struct LoadedCatalog: Sendable {
    /// The publication, mirrored image URLs filled in.
    public let publication: CatalogPublication
    /// The `ETag` it was fetched with.
    public let etag: String?
    /// When it was fetched from Chia.
    public let fetchedAt: Date
    /// How many items have a mirrored image.
    public let mirroredItemCount: Int
    /// The user-independent half of the projection.
    let projection: CatalogProjectionIndex
    let body: CatalogSnapshotBody

    init(
        body: CatalogSnapshotBody, etag: String?, fetchedAt: Date, publicOrigin: String,
        allowsLoopbackHTTP: Bool = false, linkHosts: JourneyHostPins? = nil
    ) {
        var publication = body.publication
        var mirrored = 0
        let base = publicOrigin.hasSuffix("/") ? String(publicOrigin.dropLast()) : publicOrigin
        for position in publication.items.indices {
            if let assetID = publication.items[position].imageAssetID, let image = body.images[assetID] {
                publication.items[position].mirroredImageURL = "\(base)/assets/\(image.fileName)"
                mirrored += 1
            }
        }
        self.publication = publication
        self.etag = etag
        self.fetchedAt = fetchedAt
        self.mirroredItemCount = mirrored
        self.projection = CatalogProjectionIndex(
            publication: publication, allowsLoopbackHTTP: allowsLoopbackHTTP, linkHosts: linkHosts)
        self.body = body
    }
}
