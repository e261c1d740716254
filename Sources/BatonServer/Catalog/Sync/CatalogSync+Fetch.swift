import BatonCore
import BatonHTTP
import Foundation

extension CatalogSync {
    /// The leader's pass: a conditional fetch, then either the new publication (images mirrored anew) or, on
    /// `304`, another try at the images that failed before.
    func fetchAndApply(now: Date) async throws -> CatalogSyncOutcome {
        let current = cache.catalog
        var headers = HTTPHeaders()
        headers.add("authorization", "Bearer \(configuration.apiKey.revealForUse())")
        headers.add("accept", "application/json")
        if let etag = current?.etag { headers.add("if-none-match", etag) }
        let response: OutboundResponse
        do {
            response = try await transport.send(
                OutboundRequest(
                    url: configuration.apiOrigin + "/v2/catalog", headers: headers,
                    timeout: configuration.requestTimeout))
        } catch let error as TransportError {
            throw CatalogSyncFailure(code: "transport_\(error.kind.rawValue)")
        } catch {
            throw CatalogSyncFailure(code: "transport_cancelled")
        }

        switch response.status {
        case 304:
            guard let current else { throw CatalogSyncFailure(code: "status_304") }
            try await retryUnmirrored(current, now: now)
            return .notModified
        case 200:
            break
        default:
            let retryAfter = response.retryAfter.map { Double($0.delay(from: now).components.seconds) }
            throw CatalogSyncFailure(code: "status_\(response.status)", retryAfter: retryAfter)
        }

        let publication: CatalogPublication
        do {
            publication = try RFC3339.jsonDecoder().decode(CatalogPublication.self, from: Data(response.body))
        } catch {
            throw CatalogSyncFailure(code: "invalid_body")
        }
        guard !publication.isExpired(at: now) else { throw CatalogSyncFailure(code: "expired_publication") }
        let assetIDs = Self.distinctAssetIDs(publication.items)
        onEvent(.fetched(publicationID: publication.id, items: publication.items.count, images: assetIDs.count))
        let (images, rejected) = try await mirrorImages(assetIDs, items: publication.items, now: now)
        let body = CatalogSnapshotBody(publication: publication, images: images)
        let loaded = try await save(body, etag: response.headers["etag"], fetchedAt: now)
        return .updated(
            publicationID: publication.id, items: publication.items.count, itemsWithImage: loaded.mirroredItemCount,
            imagesRejected: rejected)
    }

    /// On `304`: mirrors the images of the served publication that failed before, storing the result if any did.
    private func retryUnmirrored(_ current: LoadedCatalog, now: Date) async throws {
        let missing = current.body.unmirroredAssetIDs
        guard !missing.isEmpty, !current.publication.isExpired(at: now) else { return }
        let (images, _) = try await mirrorImages(missing, items: current.publication.items, now: now)
        guard !images.isEmpty else { return }
        var body = current.body
        body.images.merge(images) { _, new in new }
        _ = try await save(body, etag: current.etag, fetchedAt: current.fetchedAt)
    }

    /// Stores the snapshot (only while this instance still holds the lease), then serves it.
    private func save(_ body: CatalogSnapshotBody, etag: String?, fetchedAt: Date) async throws -> LoadedCatalog {
        guard try await renewLease(now: environment.now()) else { throw CatalogSyncFailure(code: "lease_lost") }
        do {
            try await store.saveCatalogSnapshot(
                CatalogSnapshot(body: try body.encoded(), etag: etag, fetchedAt: fetchedAt))
        } catch {
            throw CatalogSyncFailure(code: "store")
        }
        let loaded = LoadedCatalog(
            body: body, etag: etag, fetchedAt: fetchedAt, publicOrigin: configuration.publicOrigin,
            allowsLoopbackHTTP: configuration.allowsLoopbackHTTP, linkHosts: configuration.linkHosts)
        cache.replace(with: loaded)
        return loaded
    }

    /// Mirrors each asset id once, `imageConcurrency` at a time, renewing the lease as it goes; returns the
    /// mirrored images by asset id and how many failed.
    private func mirrorImages(
        _ assetIDs: [String], items: [CatalogItem], now: Date
    ) async throws -> (images: [String: MirroredImage], rejected: Int) {
        guard !assetIDs.isEmpty else { return ([:], 0) }
        let addresses: [IPAddress]
        do {
            addresses = try await mirror.checkOrigin()
        } catch {
            throw CatalogSyncFailure(code: "asset_origin_\(error.rawValue)")
        }
        var itemOf: [String: String] = [:]
        for item in items { if let id = item.imageAssetID, itemOf[id] == nil { itemOf[id] = item.id } }
        statusBox.withLock {
            $0.imagesDone = 0
            $0.imagesTotal = assetIDs.count
        }
        let mirror = self.mirror
        let step = max(1, assetIDs.count / 10)
        var images: [String: MirroredImage] = [:]
        var rejected = 0
        var done = 0
        try await withThrowingTaskGroup(of: MirrorResult.self) { group in
            var next = 0
            while next < min(configuration.imageConcurrency, assetIDs.count) {
                group.addTask { [assetID = assetIDs[next], itemID = itemOf[assetIDs[next]] ?? ""] in
                    await MirrorResult(
                        assetID: assetID, itemID: itemID, mirror: mirror, now: now, addresses: addresses)
                }
                next += 1
            }
            while let result = try await group.next() {
                if let image = result.image { images[result.assetID] = image } else { rejected += 1 }
                done += 1
                statusBox.withLock { $0.imagesDone = done }
                if done % step == 0 || done == assetIDs.count {
                    onEvent(.mirroring(done: done, total: assetIDs.count))
                    if done < assetIDs.count, try await !renewLease(now: environment.now()) {
                        group.cancelAll()
                        throw CatalogSyncFailure(code: "lease_lost")
                    }
                }
                if next < assetIDs.count {
                    group.addTask { [assetID = assetIDs[next], itemID = itemOf[assetIDs[next]] ?? ""] in
                        await MirrorResult(
                            assetID: assetID, itemID: itemID, mirror: mirror, now: now, addresses: addresses)
                    }
                    next += 1
                }
            }
        }
        statusBox.withLock {
            $0.imagesMirrored += images.count
            $0.imagesRejected += rejected
        }
        return (images, rejected)
    }

    static func distinctAssetIDs(_ items: [CatalogItem]) -> [String] {
        var seen = Set<String>()
        return items.compactMap(\.imageAssetID).filter { seen.insert($0).inserted }
    }
}

/// One image's result inside the mirroring task group.
private struct MirrorResult: Sendable {
    let assetID: String
    let image: MirroredImage?

    init(assetID: String, itemID: String, mirror: ImageMirror, now: Date, addresses: [IPAddress]) async {
        self.assetID = assetID
        self.image = try? await mirror.mirror(assetID: assetID, itemID: itemID, now: now, checkedAddresses: addresses)
    }
}
