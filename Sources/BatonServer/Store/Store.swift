import BatonCore
import Foundation

/// Everything the partner backend keeps, behind one async interface with two engines
/// (``SQLiteStore`` embedded, ``PostgresStore`` for several instances) and one shared test suite.
///
/// Every read-modify-write is one atomic operation here, so callers never read, decide and write in separate
/// steps. Time is always passed in (`now`), never read from a clock inside, and is kept to the millisecond.
/// Every method throws ``StoreError`` only.
public protocol Store: Sendable {
    // MARK: Idempotency (CONTRACTS.md §2)

    /// Atomically claims `(user, key)` for the request with `fingerprint`.
    ///
    /// Creates an `inProgress` record leased to `owner` until `leaseUntil` (``IdempotencyClaim/claimed``);
    /// or takes over one whose lease lapsed at or before `now`, or whose last attempt ``fail(user:key:owner:now:)``ed
    /// (``IdempotencyClaim/tookOver``); otherwise reports the existing record. A different fingerprint wins over
    /// every state (``IdempotencyClaim/fingerprintMismatch``). Of any number of concurrent callers on one key,
    /// across processes, exactly one gets `.claimed` or `.tookOver`.
    func claim(
        user: String, key: String, fingerprint: String, owner: String, leaseUntil: Date, now: Date
    ) async throws -> IdempotencyClaim

    /// Extends a live lease held by `owner`; `false` if `owner` no longer holds it.
    func extendLease(user: String, key: String, owner: String, until: Date) async throws -> Bool

    /// Records the final response, only while `owner` still holds the record `inProgress`.
    ///
    /// - Parameters:
    ///   - sealedResponse: the response already sealed by the caller; the store never sees plaintext.
    ///   - responseExpiresAt: when the response may no longer be replayed (the journey URL's expiry).
    /// - Returns: `false` (and records nothing) if another request took the lease over.
    func complete(
        user: String, key: String, owner: String, responseStatus: Int, sealedResponse: [UInt8],
        responseExpiresAt: Date, now: Date
    ) async throws -> Bool

    /// Marks a retryable failure: the record stays (a different body with this key is still rejected) and the
    /// next claim with the same fingerprint takes over at once. `false` if `owner` no longer holds it.
    func fail(user: String, key: String, owner: String, now: Date) async throws -> Bool

    /// Deletes the in-progress record held by `owner`, as if the request never arrived. `false` if not held.
    func release(user: String, key: String, owner: String) async throws -> Bool

    /// The record for `(user, key)`, if any.
    func idempotencyRecord(user: String, key: String) async throws -> IdempotencyRecord?

    /// Erases sealed responses whose expiry is at or before `now`, and deletes records created at or before
    /// `now - retention` (24 h by contract).
    func purgeIdempotency(now: Date, retention: TimeInterval) async throws -> IdempotencyPurge

    // MARK: Connect sessions (BB)

    /// Stores a new session; `false` if one with this id already exists (its owner is unchanged).
    func createConnectSession(_ session: ConnectSessionRecord) async throws -> Bool

    /// How many of `user`'s sessions created at or after `since` are still `pending`.
    func pendingConnectSessionCount(user: String, since: Date) async throws -> Int

    /// The session `id` if `user` owns it; `nil` for an unknown id or another user's session.
    func connectSession(id: String, user: String) async throws -> ConnectSessionRecord?

    /// Applies a status learned from a poll or webhook, unless the stored status was learned later than
    /// `updatedAt` (out-of-order delivery). Returns the stored session afterwards, or `nil` for an unknown id.
    func updateConnectSession(
        id: String, status: ConnectSessionState.Status, connectionID: String?, error: String?, updatedAt: Date
    ) async throws -> ConnectSessionRecord?

    // MARK: Verifications (Privue)

    /// Stores a new verification; `false` if one with this id already exists.
    func createVerification(_ verification: VerificationRecord) async throws -> Bool

    /// The verification `id` if `user` owns it.
    func verification(id: String, user: String) async throws -> VerificationRecord?

    /// The user's most recently created verification for `workflow`.
    func latestVerification(user: String, workflow: String) async throws -> VerificationRecord?

    /// Applies a status learned at `updatedAt` (ignored if older than the stored one); `nil` for an unknown id.
    func updateVerification(id: String, status: VerificationStatus, updatedAt: Date) async throws -> VerificationRecord?

    // MARK: Webhook events

    /// Stores a verified delivery; `false` if `(provider, webhookID)` was already stored (a redelivery).
    func recordWebhookEvent(_ event: WebhookEventRecord) async throws -> Bool

    /// Leases up to `limit` unprocessed events (oldest first) to `owner` until `leaseUntil`, skipping those
    /// another worker holds, so a crash between storing and processing never loses an event.
    func claimWebhookEvents(owner: String, leaseUntil: Date, now: Date, limit: Int) async throws -> [WebhookEventRecord]

    /// Marks an event processed; `false` if unknown.
    func markWebhookEventProcessed(provider: ProviderName, webhookID: String, processedAt: Date) async throws -> Bool

    // MARK: Catalog

    /// Replaces the stored catalog publication.
    func saveCatalogSnapshot(_ snapshot: CatalogSnapshot) async throws

    /// The stored catalog publication, if any.
    func latestCatalogSnapshot() async throws -> CatalogSnapshot?

    /// Inserts or replaces the metadata of a mirrored asset (keyed by asset id).
    func saveMirroredAsset(_ asset: MirroredAsset) async throws

    /// The mirrored asset with Chia's `assetID`.
    func mirroredAsset(assetID: String) async throws -> MirroredAsset?

    /// A mirrored asset whose bytes hash to `sha256` (for serving `/assets/<sha256>.<ext>`).
    func mirroredAsset(sha256: String) async throws -> MirroredAsset?

    /// Stores the bytes whose SHA-256 hex is `sha256`, unless they are already stored (content-addressed: the
    /// caller has hashed them). In the database so every instance sharing it can serve them.
    func saveAssetBytes(sha256: String, bytes: [UInt8], now: Date) async throws

    /// The bytes stored under `sha256`, if any.
    func assetBytes(sha256: String) async throws -> [UInt8]?

    // MARK: Job leases

    /// Takes or renews the lease on `job` for `owner` until `until`, if it is free, lapsed at or before `now`,
    /// or already `owner`'s. Of concurrent callers across instances exactly one succeeds.
    func tryAcquireLease(job: String, owner: String, until: Date, now: Date) async throws -> Bool

    /// Gives up `owner`'s lease on `job`; `false` if `owner` did not hold it.
    func releaseLease(job: String, owner: String) async throws -> Bool

    // MARK: Rate limits and retention

    /// Takes one request from the token bucket `bucket` (`burst` requests, refilled at `perMinute`), atomically
    /// across every instance sharing the store. A bucket not seen before starts full.
    func takeRateLimitToken(bucket: String, burst: Int, perMinute: Int, now: Date) async throws -> RateLimitDecision

    /// Takes one token as ``takeRateLimitToken(bucket:burst:perMinute:now:)`` does and, only if it was taken, claims
    /// `(user, key)` as ``claim(user:key:fingerprint:owner:leaseUntil:now:)`` does: a limited request claims nothing.
    /// A share's first two store writes, in one hop to SQLite's writer or one PostgreSQL statement.
    func takeRateLimitTokenAndClaim(
        _ take: RateLimitTake, user: String, key: String, fingerprint: String, owner: String, leaseUntil: Date,
        now: Date
    ) async throws -> RateLimitedClaim

    /// Deletes what would otherwise grow without bound: connect sessions and processed webhook events past their
    /// retention, verifications superseded by a newer one of the same user and workflow, rate-limit buckets idle
    /// long enough to be full again and, when `keepingAssets` is given (the images the stored catalog shows),
    /// stored image bytes not among them.
    func purgeRecords(now: Date, retention: RecordRetention, keepingAssets: Set<String>?) async throws -> RecordPurge

    // MARK: Lifecycle

    /// Closes connections and stops the store's threads. Later calls throw ``StoreError/Code/closed``.
    func close() async
}

extension Store {
    /// How long idempotency records are kept (CONTRACTS.md §2): 24 hours.
    public static var idempotencyRetention: TimeInterval { 24 * 60 * 60 }

    /// ``purgeIdempotency(now:retention:)`` with the contract's 24-hour retention.
    public func purgeIdempotency(now: Date) async throws -> IdempotencyPurge {
        try await purgeIdempotency(now: now, retention: Self.idempotencyRetention)
    }
}
