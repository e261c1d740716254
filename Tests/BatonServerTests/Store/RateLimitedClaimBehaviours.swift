import Foundation
import Testing

@testable import BatonServer

/// ``Store/takeRateLimitTokenAndClaim(_:user:key:fingerprint:owner:leaseUntil:now:)`` on every engine: the token is
/// the same bucket ``Store/takeRateLimitToken(bucket:burst:perMinute:now:)`` draws on, a limited call claims nothing,
/// and a taken token is followed by exactly what ``Store/claim(user:key:fingerprint:owner:leaseUntil:now:)`` answers.
enum RateLimitedClaimBehaviours {
    static let fingerprint = String(repeating: "a", count: 64)

    static func tokenThenClaim(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            let take = RateLimitTake(bucket: "user:alice", burst: 2, perMinute: 6)
            func call(
                _ key: String, owner: String = "A", at time: Date, fingerprint: String = Self.fingerprint
            )
                async throws -> RateLimitedClaim
            {
                try await store.takeRateLimitTokenAndClaim(
                    take, user: "alice", key: key, fingerprint: fingerprint, owner: owner,
                    leaseUntil: time.addingTimeInterval(30), now: time)
            }
            // A full bucket: the token is taken and a new key claimed, as `claim` would.
            #expect(try await call("k1", at: at(0)) == .claim(.claimed))
            let record = try #require(try await store.idempotencyRecord(user: "alice", key: "k1"))
            #expect(record.state == .inProgress && record.leaseOwner == "A" && record.createdAt == at(0))
            // The same bucket as `takeRateLimitToken`: its last token goes there.
            #expect(
                try await store.takeRateLimitToken(bucket: "user:alice", burst: 2, perMinute: 6, now: at(0))
                    == .allowed)
            // Empty: limited with the wait, and nothing claimed.
            #expect(try await call("k2", at: at(0)) == .limited(retryAfterSeconds: 10))
            #expect(try await store.idempotencyRecord(user: "alice", key: "k2") == nil)
            // Refilled: an existing key takes a token and gets what `claim` answers for it.
            #expect(try await call("k1", owner: "B", at: at(10)) == .claim(.inProgress(record)))
            #expect(
                try await call("k1", at: at(20), fingerprint: String(repeating: "b", count: 64))
                    == .claim(.fingerprintMismatch))
            #expect(
                try await store.complete(
                    user: "alice", key: "k1", owner: "A", responseStatus: 201, sealedResponse: [1],
                    responseExpiresAt: at(900), now: at(21)))
            guard case .claim(.completed(let done)) = try await call("k1", at: at(40)) else {
                Issue.record("expected the completed record")
                return
            }
            #expect(done.sealedResponse == [1])
        }
    }
}
