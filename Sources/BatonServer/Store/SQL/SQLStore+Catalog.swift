import Foundation

extension SQLStore {
    // MARK: Catalog

    func saveCatalogSnapshot(_ snapshot: CatalogSnapshot) async throws {
        try await engine.write("saveCatalogSnapshot", transaction: false) { db throws(StoreError) in
            _ = try db.query(
                """
                INSERT INTO catalog_snapshots (id, body, etag, fetched_at) VALUES (1, $1, $2, $3)
                ON CONFLICT (id) DO UPDATE SET body = excluded.body, etag = excluded.etag,
                    fetched_at = excluded.fetched_at
                """, [.blob(snapshot.body), .text(snapshot.etag), .time(snapshot.fetchedAt)])
        }
    }

    func latestCatalogSnapshot() async throws -> CatalogSnapshot? {
        let engineName = dialect.engine
        return try await engine.read("latestCatalogSnapshot") { db throws(StoreError) in
            let rows = try db.query("SELECT body, etag, fetched_at FROM catalog_snapshots WHERE id = 1", [])
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
                """
                INSERT INTO mirrored_assets (\(StoreRows.mirroredAssetColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (asset_id) DO UPDATE SET item_id = excluded.item_id, sha256 = excluded.sha256,
                    file_extension = excluded.file_extension, content_type = excluded.content_type,
                    byte_count = excluded.byte_count, mirrored_at = excluded.mirrored_at
                """,
                [
                    .text(asset.assetID), .text(asset.itemID), .text(asset.sha256), .text(asset.fileExtension),
                    .text(asset.contentType), .integer(Int64(asset.byteCount)), .time(asset.mirroredAt),
                ])
        }
    }

    func mirroredAsset(assetID: String) async throws -> MirroredAsset? {
        try await mirroredAsset(where: "asset_id", equals: assetID, operation: "mirroredAssetByID")
    }

    func mirroredAsset(sha256: String) async throws -> MirroredAsset? {
        try await mirroredAsset(where: "sha256", equals: sha256, operation: "mirroredAssetBySHA256")
    }

    func saveAssetBytes(sha256: String, bytes: [UInt8], now: Date) async throws {
        try await engine.write("saveAssetBytes", transaction: false) { db throws(StoreError) in
            _ = try db.query(
                "INSERT INTO asset_blobs (sha256, bytes, stored_at) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING",
                [.text(sha256), .blob(bytes), .time(now)])
        }
    }

    func assetBytes(sha256: String) async throws -> [UInt8]? {
        let engineName = dialect.engine
        return try await engine.read("assetBytes") { db throws(StoreError) in
            let rows = try db.query("SELECT bytes FROM asset_blobs WHERE sha256 = $1", [.text(sha256)])
            return try decode("assetBytes", engineName) { try rows.first.map { try $0.blob(0) } }
        }
    }

    private func mirroredAsset(
        where column: String, equals value: String, operation: String
    ) async throws
        -> MirroredAsset?
    {
        let engineName = dialect.engine
        return try await engine.read(operation) { db throws(StoreError) in
            let rows = try db.query(
                """
                SELECT \(StoreRows.mirroredAssetColumns) FROM mirrored_assets WHERE \(column) = $1
                ORDER BY mirrored_at DESC, asset_id LIMIT 1
                """, [.text(value)])
            return try decode(operation, engineName) { try rows.first.map(StoreRows.mirroredAsset) }
        }
    }

    // MARK: Job leases

    func tryAcquireLease(job: String, owner: String, until: Date, now: Date) async throws -> Bool {
        try await engine.write("tryAcquireLease", transaction: false) { db throws(StoreError) in
            // One statement: insert, or take over a lapsed/own lease; a live lease of another owner is left alone.
            try !db.query(
                """
                INSERT INTO job_leases (job, owner, lease_expires_at) VALUES ($1, $2, $3)
                ON CONFLICT (job) DO UPDATE SET owner = excluded.owner, lease_expires_at = excluded.lease_expires_at
                WHERE job_leases.lease_expires_at <= $4 OR job_leases.owner = excluded.owner
                RETURNING owner
                """, [.text(job), .text(owner), .time(until), .time(now)]
            ).isEmpty
        }
    }

    func releaseLease(job: String, owner: String) async throws -> Bool {
        try await engine.write("releaseLease", transaction: false) { db throws(StoreError) in
            try !db.query(
                "DELETE FROM job_leases WHERE job = $1 AND owner = $2 RETURNING owner", [.text(job), .text(owner)]
            ).isEmpty
        }
    }
}
