extension StoreSQL {
    // MARK: Retention

    // Each purge statement takes `$1` the cut-off and `$2` the batch size, touches at most `$2` rows, and returns one
    // row per row touched (``SQLStore/inBatches(_:_:_:batchSize:)`` runs it until a batch comes back short).

    /// Idempotency records created at or before `$1`.
    static let purgeIdempotencyRecords = """
        DELETE FROM idempotency_records WHERE (user_id, idempotency_key) IN (
            SELECT user_id, idempotency_key FROM idempotency_records WHERE created_at <= $1 LIMIT $2)
        RETURNING state
        """

    /// Sealed responses whose expiry is at or before `$1`; the records stay.
    static let eraseExpiredResponses = """
        UPDATE idempotency_records SET sealed_response = NULL WHERE (user_id, idempotency_key) IN (
            SELECT user_id, idempotency_key FROM idempotency_records
            WHERE sealed_response IS NOT NULL AND response_expires_at <= $1 LIMIT $2)
        RETURNING state
        """

    static let purgeConnectSessions = """
        DELETE FROM connect_sessions WHERE session_id IN (
            SELECT session_id FROM connect_sessions WHERE created_at <= $1 LIMIT $2)
        RETURNING session_id
        """

    /// Processed webhook events received at or before `$1`.
    static let purgeWebhookEvents = """
        DELETE FROM webhook_events WHERE (provider, webhook_id) IN (
            SELECT provider, webhook_id FROM webhook_events
            WHERE processed_at IS NOT NULL AND received_at <= $1 LIMIT $2)
        RETURNING webhook_id
        """

    static let purgeRateLimitBuckets = """
        DELETE FROM rate_limit_buckets WHERE bucket IN (
            SELECT bucket FROM rate_limit_buckets WHERE updated_at <= $1 LIMIT $2)
        RETURNING bucket
        """

    /// Verifications created at or before `$1` that a newer one of the same user and workflow supersedes (only the
    /// newest is ever read).
    static let purgeSupersededVerifications = """
        DELETE FROM verifications WHERE verification_id IN (
            SELECT verification_id FROM verifications AS old WHERE old.created_at <= $1 AND EXISTS (
                SELECT 1 FROM verifications AS newer
                WHERE newer.user_id = old.user_id AND newer.workflow = old.workflow
                    AND (newer.created_at > old.created_at
                        OR (newer.created_at = old.created_at
                            AND newer.verification_id > old.verification_id)))
            LIMIT $2)
        RETURNING verification_id
        """

    /// Asset blobs stored at or before `$1` (the purge keeps those the catalog still shows).
    static let oldAssetBlobs = "SELECT sha256 FROM asset_blobs WHERE stored_at <= $1"

    /// One asset blob, unless it was stored again after `$2` (a newer catalog).
    static let deleteAssetBlob = "DELETE FROM asset_blobs WHERE sha256 = $1 AND stored_at <= $2 RETURNING sha256"
}
