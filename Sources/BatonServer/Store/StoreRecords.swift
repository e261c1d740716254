import Foundation

/// Where an idempotency record stands.
public enum IdempotencyState: String, Sendable, Hashable, CaseIterable {
    /// A request holds the lease and is talking to the provider.
    case inProgress = "in_progress"
    /// A final response (success or definitive 4xx) is recorded and replayed for this key.
    case completed
    /// The last attempt failed retryably; the next claim with the same fingerprint takes over.
    case failed
}

/// One `(user, Idempotency-Key)` pair and what the backend knows about it.
///
/// Times are stored with millisecond precision.
public struct IdempotencyRecord: Sendable, Hashable {
    /// The authenticated user who sent the key.
    public var user: String
    /// The client's `Idempotency-Key`.
    public var key: String
    /// SHA-256 hex of the canonical request body, so a reused key with another body is detected.
    public var fingerprint: String
    /// Where the request stands.
    public var state: IdempotencyState
    /// The instance/request currently holding the lease, while `inProgress`.
    public var leaseOwner: String?
    /// When the lease lapses and another request may take over.
    public var leaseExpiresAt: Date?
    /// The HTTP status of the recorded response, once `completed`.
    public var responseStatus: Int?
    /// The response, sealed by the caller (AES-256-GCM); `nil` before completion and after purge.
    public var sealedResponse: [UInt8]?
    /// When the sealed response stops being replayable (the journey URL expires) and is purged.
    public var responseExpiresAt: Date?
    /// When the first request with this key arrived; records are kept 24 h from here.
    public var createdAt: Date

    /// Creates a record.
    public init(
        user: String, key: String, fingerprint: String, state: IdempotencyState, leaseOwner: String? = nil,
        leaseExpiresAt: Date? = nil, responseStatus: Int? = nil, sealedResponse: [UInt8]? = nil,
        responseExpiresAt: Date? = nil, createdAt: Date
    ) {
        self.user = user
        self.key = key
        self.fingerprint = fingerprint
        self.state = state
        self.leaseOwner = leaseOwner
        self.leaseExpiresAt = leaseExpiresAt
        self.responseStatus = responseStatus
        self.sealedResponse = sealedResponse
        self.responseExpiresAt = responseExpiresAt
        self.createdAt = createdAt
    }
}

/// What ``Store/claim(user:key:fingerprint:owner:leaseUntil:now:)`` decided, atomically.
public enum IdempotencyClaim: Sendable, Hashable {
    /// No record existed: the caller now holds a fresh lease and must forward the request.
    case claimed
    /// A lease had lapsed (or the last attempt failed retryably): the caller now holds the lease and must
    /// forward the request again with the same (derived) provider key, so the provider dedupes it.
    case tookOver
    /// Another request holds a live lease; wait (bounded) and claim again.
    case inProgress(IdempotencyRecord)
    /// A final response is recorded; replay it (or answer 410 if it was purged after expiry).
    case completed(IdempotencyRecord)
    /// The key was first used with a different request body (422 `idempotency_key_reused`).
    case fingerprintMismatch
}

/// How many rows a purge touched.
public struct IdempotencyPurge: Sendable, Hashable {
    /// Completed records, kept, whose sealed response passed its expiry and was erased (a record deleted whole
    /// counts in ``recordsDeleted`` only).
    public var responsesErased: Int
    /// Records older than the retention window, deleted whole.
    public var recordsDeleted: Int
    /// Write statements the purge ran, each on a bounded batch of rows (so a claim never waits behind all of it).
    public var batches: Int

    /// Creates a purge result.
    public init(responsesErased: Int, recordsDeleted: Int, batches: Int = 0) {
        self.responsesErased = responsesErased
        self.recordsDeleted = recordsDeleted
        self.batches = batches
    }
}
