import BatonCore
import Foundation

/// Column lists and row decoders for every record type, in one place so `SELECT` and decoder agree.
enum StoreRows {
    static let idempotencyColumns = """
        user_id, idempotency_key, fingerprint, state, lease_owner, lease_expires_at, response_status, \
        sealed_response, response_expires_at, created_at
        """

    static func idempotencyRecord(_ row: SQLRow) throws -> IdempotencyRecord {
        guard let state = IdempotencyState(rawValue: try row.text(3)) else { throw SQLRow.DecodingFailure() }
        return IdempotencyRecord(
            user: try row.text(0), key: try row.text(1), fingerprint: try row.text(2), state: state,
            leaseOwner: try row.optionalText(4), leaseExpiresAt: try row.optionalTime(5),
            responseStatus: try row.optionalInteger(6).map { Int($0) }, sealedResponse: try row.optionalBlob(7),
            responseExpiresAt: try row.optionalTime(8), createdAt: try row.time(9))
    }

    static let connectSessionColumns = "session_id, user_id, status, connection_id, error, created_at, updated_at"

    static func connectSession(_ row: SQLRow) throws -> ConnectSessionRecord {
        guard let status = ConnectSessionState.Status(rawValue: try row.text(2)) else { throw SQLRow.DecodingFailure() }
        return ConnectSessionRecord(
            id: try row.text(0), user: try row.text(1), status: status, connectionID: try row.optionalText(3),
            error: try row.optionalText(4), createdAt: try row.time(5), updatedAt: try row.time(6))
    }

    static let verificationColumns = "verification_id, user_id, workflow, status, created_at, updated_at"

    static func verification(_ row: SQLRow) throws -> VerificationRecord {
        VerificationRecord(
            id: try row.text(0), user: try row.text(1), workflow: try row.text(2),
            status: VerificationStatus(rawValue: try row.text(3)),
            createdAt: try row.time(4), updatedAt: try row.time(5))
    }

    static let webhookEventColumns = "provider, webhook_id, event_type, payload, received_at, processed_at"

    static func webhookEvent(_ row: SQLRow) throws -> WebhookEventRecord {
        guard let provider = ProviderName(rawValue: try row.text(0)) else {
            throw SQLRow.DecodingFailure()
        }
        return WebhookEventRecord(
            provider: provider, webhookID: try row.text(1), eventType: try row.text(2),
            payload: try row.blob(3), receivedAt: try row.time(4), processedAt: try row.optionalTime(5))
    }

    static let mirroredAssetColumns =
        "asset_id, item_id, sha256, file_extension, content_type, byte_count, mirrored_at"

    static func mirroredAsset(_ row: SQLRow) throws -> MirroredAsset {
        MirroredAsset(
            assetID: try row.text(0), itemID: try row.text(1), sha256: try row.text(2),
            fileExtension: try row.text(3), contentType: try row.text(4), byteCount: Int(try row.integer(5)),
            mirroredAt: try row.time(6))
    }
}

/// Maps a row-shape failure to `StoreError(.corrupt)`, so nothing but `StoreError` leaves the store.
func decode<T>(_ operation: String, _ engine: StoreError.Engine, _ body: () throws -> T) throws(StoreError) -> T {
    do {
        return try body()
    } catch let error as StoreError {
        throw error
    } catch {
        throw StoreError(.corrupt, engine: engine, operation: operation)
    }
}
