import BatonCore
import BatonHTTP
import Foundation
import Synchronization

/// How long duplicates wait and how long records live, for `POST /v2/handoff-sessions`.
public struct HandoffSessionOptions: Sendable {
    /// How long a request with the key of a still-running one waits for it before answering 503.
    public var joinTimeout: Duration = .seconds(5)
    /// How often a waiting request re-reads the store (a request on another instance cannot wake it).
    public var joinPollInterval: Duration = .milliseconds(100)
    /// The `Retry-After` sent with that 503, in seconds.
    public var inProgressRetryAfterSeconds = 1
    /// How long a definitive rejection is replayed, and how long any record is kept (24 h by contract);
    /// ``BatonBackend`` sets it from the configuration's `retention.idempotencyRecordsSeconds`.
    public var retention: TimeInterval = 24 * 60 * 60

    /// The defaults above.
    public init() {}
}

/// `POST /v2/handoff-sessions`: Chia share with every row of the idempotency table (CONTRACTS.md §2).
///
/// Claim `(user, key)` atomically in the store; the claimant checks the user's current projection, calls Chia with
/// the key derived from `(user, key)` (``ProviderIdempotencyKeys``) and records the final answer sealed; duplicates
/// wait (bounded) and replay it. A retryable provider failure marks the record failed, so the app's retry with the
/// same key and body takes over at once; an
/// instance that dies leaves a lease that lapses, after which a retry takes over (Chia dedupes on the derived key).
struct HandoffSessionService: Sendable {
    let store: any Store
    let chia: ChiaClient
    let catalog: any CatalogProjection
    let sealer: ResponseSealer
    /// Derives the key sent to Chia per (user, app key): never the app's key itself.
    let providerKeys: ProviderIdempotencyKeys
    let waiters: IdempotencyWaiters
    let options: HandoffSessionOptions
    /// How long a claim holds its lease: longer than the slowest provider call.
    let lease: TimeInterval
    let instanceID: String
    let metrics: BackendMetrics
    let now: @Sendable () -> Date

    func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        let user = try request.authenticatedUser()
        // The rate-limit token left to this route (see ``RateLimitMiddleware``): taken with the claim, or alone
        // before any other answer, so a limited request still gets 429 first and claims nothing.
        var token = request.attributes[PendingRateLimitKey.self]
        guard let header = request.headers["idempotency-key"], let key = IdempotencyKey(header) else {
            try await token?.takeAlone(now: now())
            metrics.recordIdempotency(.invalidKey)
            throw BackendProblem.idempotencyKeyInvalid
        }
        guard let body = ShareRequestBody(json: request.body) else {
            try await token?.takeAlone(now: now())
            metrics.recordIdempotency(.invalidRequest)
            throw BackendProblem.invalidRequest(
                "The body must be exactly {catalogItemId, disclosureVersion, affirmed: true, affirmedAt}.")
        }
        let record = Claim(user: user, key: key.rawValue, owner: "\(instanceID)/\(ClaimOwners.shared.next())")
        let clock = ContinuousClock()
        let deadline = clock.now + options.joinTimeout
        var waited = false
        while true {
            let now = now()
            let claim: IdempotencyClaim
            if let pending = token {
                token = nil
                claim = try await pending.takeThenClaim(
                    user: record.user.id, key: record.key, fingerprint: body.fingerprint, owner: record.owner,
                    leaseUntil: now.addingTimeInterval(lease), now: now)
            } else {
                claim = try await store.claim(
                    user: record.user.id, key: record.key, fingerprint: body.fingerprint, owner: record.owner,
                    leaseUntil: now.addingTimeInterval(lease), now: now)
            }
            switch claim {
            case .fingerprintMismatch:
                metrics.recordIdempotency(.keyReused)
                throw BackendProblem.idempotencyKeyReused
            case .completed(let stored):
                return try replay(stored, record, joined: waited)
            case .inProgress:
                let remaining = deadline - clock.now
                guard remaining > .zero else {
                    metrics.recordIdempotency(.joinTimeout)
                    throw BackendProblem.stillInProgress(retryAfter: options.inProgressRetryAfterSeconds)
                }
                if !waited { metrics.recordIdempotency(.waiting) }
                waited = true
                await waiters.wait(for: record.waitID, atMost: min(remaining, options.joinPollInterval))
            case .claimed:
                return try await forward(body, key: key, record, tookOver: false)
            case .tookOver:
                return try await forward(body, key: key, record, tookOver: true)
            }
        }
    }

    /// The holder of the lease: check the projection, call Chia, record the final answer.
    private func forward(
        _ body: ShareRequestBody, key: IdempotencyKey, _ record: Claim, tookOver: Bool
    ) async throws -> HTTPResponse {
        defer { waiters.notify(record.waitID) }
        do {
            let offered = try await catalog.handoff(for: record.user, catalogItemID: body.catalogItemId, now: now())
            guard case .shareOrNeutral(let share)? = offered, share.disclosureVersion == body.disclosureVersion else {
                metrics.recordIdempotency(.projectionChanged)
                return try await completeDefinitive(BackendProblem.projectionChanged, record)
            }
            let upstreamKey = providerKeys.key(for: .chiaHandoffSession, user: record.user.id, appKey: key)
            switch try await chia.createHandoffSession(key: upstreamKey, request: body) {
            case .success(let handoff):
                let plaintext = HandoffSession(url: handoff.url, expiresAt: handoff.expiresAt).jsonBody
                let sealed = try sealer.seal(plaintext, user: record.user.id, key: record.key)
                _ = try await store.complete(
                    user: record.user.id, key: record.key, owner: record.owner, responseStatus: 201,
                    sealedResponse: sealed, responseExpiresAt: handoff.expiresAt, now: now())
                metrics.recordIdempotency(tookOver ? .tookOver : .created)
                return Self.created(plaintext, replayed: false)
            case .rejected(let rejection):
                metrics.recordIdempotency(.providerRejected)
                return try await completeDefinitive(Self.problem(for: rejection), record)
            case .unavailable(let failure):
                metrics.recordIdempotency(.providerRetryable)
                _ = try await store.fail(user: record.user.id, key: record.key, owner: record.owner, now: now())
                return BackendProblem.providerUnavailable(failure).response()
            }
        } catch {
            // Whatever broke (the store, the projection, cancellation), a retry with the same key must proceed.
            _ = try? await store.fail(user: record.user.id, key: record.key, owner: record.owner, now: now())
            throw error
        }
    }

    private func completeDefinitive(_ problem: HTTPError, _ record: Claim) async throws -> HTTPResponse {
        let response = problem.response()
        let sealed = try sealer.seal(response.body, user: record.user.id, key: record.key)
        let now = now()
        _ = try await store.complete(
            user: record.user.id, key: record.key, owner: record.owner, responseStatus: problem.status,
            sealedResponse: sealed, responseExpiresAt: now.addingTimeInterval(options.retention), now: now)
        return response
    }

    /// Answers from a finished record: the same 201 while the URL lives, 410 after; a recorded rejection again.
    /// A response no configured sealing key opens (sealed under a key since retired) counts as expired.
    private func replay(_ stored: IdempotencyRecord, _ record: Claim, joined: Bool) throws -> HTTPResponse {
        let status = stored.responseStatus ?? 500
        guard let sealed = stored.sealedResponse, let expiresAt = stored.responseExpiresAt, expiresAt > now(),
            let plaintext = sealer.open(sealed, user: record.user.id, key: record.key)
        else {
            metrics.recordIdempotency(.expired)
            if status == 201 { throw BackendProblem.handoffExpired }
            throw HTTPError(.requestRejected, status: status, detail: "This request was refused earlier.")
        }
        metrics.recordIdempotency(joined ? .joined : .replayed)
        var response: HTTPResponse
        if status == 201 {
            response = Self.created(plaintext, replayed: true)
        } else {
            response = HTTPResponse(
                status: status, headers: ["content-type": "application/problem+json"], body: plaintext)
        }
        response.headers.set("idempotent-replayed", "true")
        return response
    }

    /// Chia's definitive 4xx, as the app should read it.
    static func problem(for rejection: ProviderRejection) -> HTTPError {
        switch rejection.status {
        case 404, 409: BackendProblem.projectionChanged
        case 410: BackendProblem.handoffExpired
        case 422 where rejection.code == "idempotency_key_reused": BackendProblem.idempotencyKeyReused
        default: BackendProblem.handoffRejected
        }
    }

    static func created(_ body: [UInt8], replayed: Bool) -> HTTPResponse {
        HTTPResponse(
            status: 201,
            headers: ["content-type": "application/json", "cache-control": "no-store", "pragma": "no-cache"],
            body: body)
    }

    /// Who holds this attempt's claim.
    struct Claim {
        let user: AuthenticatedUser
        let key: String
        let owner: String

        var waitID: String { "\(user.id)\u{0}\(key)" }
    }
}

/// Names the owner of each claim: a random per-process part and a counter, so two processes never share one even
/// when configured with the same instance id. (`UUID()` read `/dev/urandom` with three system calls per share.)
final class ClaimOwners: Sendable {
    static let shared = ClaimOwners()

    private let process = String(UInt64.random(in: .min ... .max), radix: 16)
    private let counter = Atomic<UInt64>(0)

    func next() -> String { process + "-" + String(counter.add(1, ordering: .relaxed).newValue, radix: 16) }
}
