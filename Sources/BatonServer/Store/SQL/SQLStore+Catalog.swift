import Foundation

extension SQLStore {
    // MARK: Catalog

    func saveCatalogSnapshot(_ snapshot: CatalogSnapshot) async throws {
        try await engine.write("saveCatalogSnapshot", transaction: false) { db throws(StoreError) in
            _ = try db.query(
                StoreSQL.saveCatalogSnapshot, [.blob(snapshot.body), .text(snapshot.etag), .time(snapshot.fetchedAt)])
        }
    }

    func latestCatalogSnapshot() async throws -> CatalogSnapshot? {
        let engineName = dialect.engine
        return try await engine.read("latestCatalogSnapshot") { db throws(StoreError) in
            let rows = try db.query(StoreSQL.latestCatalogSnapshot, [])
            return try decode("latestCatalogSnapshot", engineName) {
                try rows.first.map { row in
                    CatalogSnapshot(body: try row.blob(0), etag: try row.optionalText(1), fetchedAt: try row.time(2))
                }
            }
        }
    }

    func saveMirroredAsset(_ asset: MirroredAsset) async throws {
        try await engine.write("saveMirroredAsset", transaction: false) { db throws(StoreError) in
            _ = try db.query(
                StoreSQL.saveMirroredAsset,
                [
                    .text(asset.assetID), .text(asset.itemID), .text(asset.sha256), .text(asset.fileExtension),
                    .text(asset.contentType), .integer(Int64(asset.byteCount)), .time(asset.mirroredAt),
                ])
        }
    }

    func mirroredAsset(assetID: String) async throws -> MirroredAsset? {
        try await mirroredAsset(StoreSQL.mirroredAssetByID, equals: assetID, operation: "mirroredAssetByID")
    }

    func mirroredAsset(sha256: String) async throws -> MirroredAsset? {
        try await mirroredAsset(StoreSQL.mirroredAssetBySHA256, equals: sha256, operation: "mirroredAssetBySHA256")
    }

    func saveAssetBytes(sha256: String, bytes: [UInt8], now: Date) async throws {
        try await engine.write("saveAssetBytes", transaction: false) { db throws(StoreError) in
            _ = try db.query(
                StoreSQL.saveAssetBytes, [.text(sha256), .blob(bytes), .time(now)])
        }
    }

    func assetBytes(sha256: String) async throws -> [UInt8]? {
        let engineName = dialect.engine
        return try await engine.read("assetBytes") { db throws(StoreError) in
            let rows = try db.query(StoreSQL.assetBytes, [.text(sha256)])
            return try decode("assetBytes", engineName) { try rows.first.map { try $0.blob(0) } }
        }
    }

    private func mirroredAsset(
        _ sql: String, equals value: String, operation: String
    ) async throws
        -> MirroredAsset?
    {
        let engineName = dialect.engine
        return try await engine.read(operation) { db throws(StoreError) in
            let rows = try db.query(sql, [.text(value)])
            return try decode(operation, engineName) { try rows.first.map(StoreRows.mirroredAsset) }
        }
    }

    // MARK: Job leases

    func tryAcquireLease(job: String, owner: String, until: Date, now: Date) async throws -> Bool {
        try await engine.write("tryAcquireLease", transaction: false) { db throws(StoreError) in
            // One statement: insert, or take over a lapsed/own lease; a live lease of another owner is left alone.
            try !db.query(
                StoreSQL.tryAcquireLease, [.text(job), .text(owner), .time(until), .time(now)]
            ).isEmpty
        }
    }

    func releaseLease(job: String, owner: String) async throws -> Bool {
        try await engine.write("releaseLease", transaction: false) { db throws(StoreError) in
            try !db.query(
                StoreSQL.releaseLease, [.text(job), .text(owner)]
            ).isEmpty
        }
    }
}
