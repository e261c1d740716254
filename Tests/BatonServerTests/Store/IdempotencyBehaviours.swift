import Foundation
import Testing

@testable import BatonServer

/// Idempotency-record behaviours of every `Store` (CONTRACTS.md §2), run per engine by the store suites.
enum IdempotencyBehaviours {
    static let fingerprint = String(repeating: "a", count: 64)
    static let otherFingerprint = String(repeating: "b", count: 64)

    static func claimThenJoinThenCompleteThenReplay(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            let first = try await store.claim(
                user: "u1", key: "k1", fingerprint: fingerprint, owner: "A", leaseUntil: at(30), now: at(0))
            #expect(first == .claimed)

            let second = try await store.claim(
                user: "u1", key: "k1", fingerprint: fingerprint, owner: "B", leaseUntil: at(31), now: at(1))
            guard case .inProgress(let running) = second else {
                Issue.record("expected inProgress, got \(second)"); return
            }
            #expect(running.leaseOwner == "A")
            #expect(running.leaseExpiresAt == at(30))
            #expect(running.createdAt == at(0))

            #expect(
                try await store.complete(
                    user: "u1", key: "k1", owner: "B", responseStatus: 201, sealedResponse: [1],
                    responseExpiresAt: at(900),
                    now: at(2)) == false)
            #expect(
                try await store.complete(
                    user: "u1", key: "k1", owner: "A", responseStatus: 201, sealedResponse: [9, 8, 7],
                    responseExpiresAt: at(900), now: at(2)))

            let replay = try await store.claim(
                user: "u1", key: "k1", fingerprint: fingerprint, owner: "C", leaseUntil: at(40), now: at(10))
            let expected = IdempotencyRecord(
                user: "u1", key: "k1", fingerprint: fingerprint, state: .completed, responseStatus: 201,
                sealedResponse: [9, 8, 7], responseExpiresAt: at(900), createdAt: at(0))
            #expect(replay == .completed(expected))
            #expect(try await store.idempotencyRecord(user: "u1", key: "k1") == expected)

            // The same key from another user is another record.
            #expect(
                try await store.claim(
                    user: "u2", key: "k1", fingerprint: otherFingerprint, owner: "D", leaseUntil: at(40), now: at(10))
                    == .claimed)
        }
    }

    static func aDifferentBodyIsRejectedInEveryState(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            _ = try await store.claim(
                user: "u", key: "k", fingerprint: fingerprint, owner: "A", leaseUntil: at(30), now: at(0))
            #expect(
                try await store.claim(
                    user: "u", key: "k", fingerprint: otherFingerprint, owner: "B", leaseUntil: at(30), now: at(1))
                    == .fingerprintMismatch)
            // Even with the lease lapsed, a different body never takes over.
            #expect(
                try await store.claim(
                    user: "u", key: "k", fingerprint: otherFingerprint, owner: "B", leaseUntil: at(90), now: at(60))
                    == .fingerprintMismatch)
            #expect(try await store.fail(user: "u", key: "k", owner: "A", now: at(61)))
            #expect(
                try await store.claim(
                    user: "u", key: "k", fingerprint: otherFingerprint, owner: "B", leaseUntil: at(90), now: at(62))
                    == .fingerprintMismatch)
            #expect(
                try await store.claim(
                    user: "u", key: "k", fingerprint: fingerprint, owner: "C", leaseUntil: at(90), now: at(62))
                    == .tookOver)
            _ = try await store.complete(
                user: "u", key: "k", owner: "C", responseStatus: 400, sealedResponse: [], responseExpiresAt: at(900),
                now: at(63))
            #expect(
                try await store.claim(
                    user: "u", key: "k", fingerprint: otherFingerprint, owner: "B", leaseUntil: at(90), now: at(64))
                    == .fingerprintMismatch)
        }
    }

    static func aLapsedLeaseIsTakenOverAndTheOldOwnerCannotComplete(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            _ = try await store.claim(
                user: "u", key: "k", fingerprint: fingerprint, owner: "A", leaseUntil: at(30), now: at(0))
            #expect(try await store.extendLease(user: "u", key: "k", owner: "A", until: at(40)))
            #expect(try await store.extendLease(user: "u", key: "k", owner: "B", until: at(99)) == false)
            if case .inProgress = try await store.claim(
                user: "u", key: "k", fingerprint: fingerprint, owner: "B", leaseUntil: at(70), now: at(35))
            {
            } else {
                Issue.record("a live (extended) lease must not be taken over")
            }
            // The lease lapses exactly at its expiry.
            #expect(
                try await store.claim(
                    user: "u", key: "k", fingerprint: fingerprint, owner: "B", leaseUntil: at(70), now: at(40))
                    == .tookOver)
            let record = try #require(try await store.idempotencyRecord(user: "u", key: "k"))
            #expect(record.leaseOwner == "B" && record.leaseExpiresAt == at(70) && record.state == .inProgress)
            #expect(
                try await store.complete(
                    user: "u", key: "k", owner: "A", responseStatus: 201, sealedResponse: [1],
                    responseExpiresAt: at(900),
                    now: at(41)) == false)
            #expect(try await store.release(user: "u", key: "k", owner: "A") == false)
            #expect(try await store.fail(user: "u", key: "k", owner: "A", now: at(41)) == false)
            #expect(
                try await store.complete(
                    user: "u", key: "k", owner: "B", responseStatus: 201, sealedResponse: [2],
                    responseExpiresAt: at(900),
                    now: at(42)))
        }
    }

    static func releaseForgetsTheRequestAndFailKeepsTheKeyPinned(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            _ = try await store.claim(
                user: "u", key: "k", fingerprint: fingerprint, owner: "A", leaseUntil: at(30), now: at(0))
            #expect(try await store.release(user: "u", key: "k", owner: "A"))
            #expect(try await store.idempotencyRecord(user: "u", key: "k") == nil)
            #expect(
                try await store.claim(
                    user: "u", key: "k", fingerprint: fingerprint, owner: "B", leaseUntil: at(30), now: at(1))
                    == .claimed)
            #expect(try await store.fail(user: "u", key: "k", owner: "B", now: at(2)))
            let failed = try #require(try await store.idempotencyRecord(user: "u", key: "k"))
            #expect(failed.state == .failed && failed.leaseOwner == nil)
            // A retry proceeds at once (no need to wait for the lease).
            #expect(
                try await store.claim(
                    user: "u", key: "k", fingerprint: fingerprint, owner: "C", leaseUntil: at(33), now: at(3))
                    == .tookOver)
            // A completed record can be neither released nor failed.
            _ = try await store.complete(
                user: "u", key: "k", owner: "C", responseStatus: 201, sealedResponse: [1], responseExpiresAt: at(9),
                now: at(4))
            #expect(try await store.release(user: "u", key: "k", owner: "C") == false)
            #expect(try await store.fail(user: "u", key: "k", owner: "C", now: at(5)) == false)
        }
    }

    static func purgeErasesExpiredResponsesAndDropsRecordsAfterRetention(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            let day: TimeInterval = 86_400
            for (key, created, expires) in [
                ("old", 0.0, 900.0), ("expired", day - 10, day + 100), ("live", day, day + 2000),
            ] {
                _ = try await store.claim(
                    user: "u", key: key, fingerprint: fingerprint, owner: "A", leaseUntil: at(created + 30),
                    now: at(created))
                _ = try await store.complete(
                    user: "u", key: key, owner: "A", responseStatus: 201, sealedResponse: [1, 2],
                    responseExpiresAt: at(expires),
                    now: at(created + 1))
            }
            _ = try await store.claim(
                user: "u", key: "running", fingerprint: fingerprint, owner: "A", leaseUntil: at(day + 500), now: at(day)
            )

            let purge = try await store.purgeIdempotency(now: at(day + 100), retention: day)
            // "old" is deleted whole (its response is not erased first); one batch each for delete and erase.
            #expect(purge == IdempotencyPurge(responsesErased: 1, recordsDeleted: 1, batches: 2))
            #expect(try await store.idempotencyRecord(user: "u", key: "old") == nil)
            let expired = try #require(try await store.idempotencyRecord(user: "u", key: "expired"))
            #expect(expired.sealedResponse == nil && expired.state == .completed && expired.responseStatus == 201)
            #expect(try await store.idempotencyRecord(user: "u", key: "live")?.sealedResponse == [1, 2])
            #expect(try await store.idempotencyRecord(user: "u", key: "running")?.state == .inProgress)
            #expect(
                try await store.purgeIdempotency(now: at(day + 100), retention: day)
                    == IdempotencyPurge(responsesErased: 0, recordsDeleted: 0, batches: 2))
        }
    }

    /// A purge never touches more than a batch of rows in one write (a claim waits behind one batch, not the whole
    /// purge), and batch after batch it still removes everything due and nothing else.
    static func purgeRunsInBoundedBatches(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            let day: TimeInterval = 86_400
            // 25 records past retention, 12 kept whose responses expired, 3 live.
            for (prefix, count, created, expires) in [
                ("old", 25, 0.0, 900.0), ("expired", 12, day - 10, day + 100), ("live", 3, day, day + 2000),
            ] {
                for index in 0..<count {
                    _ = try await store.claim(
                        user: "u\(index % 3)", key: "\(prefix)-\(index)", fingerprint: fingerprint, owner: "A",
                        leaseUntil: at(created + 30), now: at(created))
                    _ = try await store.complete(
                        user: "u\(index % 3)", key: "\(prefix)-\(index)", owner: "A", responseStatus: 201,
                        sealedResponse: [1], responseExpiresAt: at(expires), now: at(created + 1))
                }
            }
            let purging = try #require(store as? any BatchedIdempotencyPurge)

            let purge = try await purging.purgeIdempotency(now: at(day + 100), retention: day, batchSize: 10)

            // Deletes of 10, 10 and 5 rows; erasures of 10 and 2.
            #expect(purge == IdempotencyPurge(responsesErased: 12, recordsDeleted: 25, batches: 5))
            for index in 0..<25 {
                #expect(try await store.idempotencyRecord(user: "u\(index % 3)", key: "old-\(index)") == nil)
            }
            for index in 0..<12 {
                let record = try await store.idempotencyRecord(user: "u\(index % 3)", key: "expired-\(index)")
                #expect(record?.state == .completed && record?.sealedResponse == nil)
            }
            for index in 0..<3 {
                let record = try await store.idempotencyRecord(user: "u\(index % 3)", key: "live-\(index)")
                #expect(record?.sealedResponse == [1])
            }
            // A batch that comes back exactly full is followed by one that finds nothing.
            #expect(
                try await purging.purgeIdempotency(now: at(2 * day + 10), retention: day, batchSize: 5)
                    == IdempotencyPurge(responsesErased: 0, recordsDeleted: 15, batches: 5))

            // Maintenance's purge deletes 100 rows a statement (1,000 held SQLite's writer for tens of milliseconds
            // a batch: docs/reliability-history.md, "Store path of a share"): 150 records go in two deletes, then one
            // erasure finds nothing.
            for index in 0..<150 {
                _ = try await store.claim(
                    user: "u\(index % 3)", key: "later-\(index)", fingerprint: fingerprint, owner: "A",
                    leaseUntil: at(3 * day + 30), now: at(3 * day))
            }
            #expect(
                try await store.purgeIdempotency(now: at(4 * day + 10), retention: day)
                    == IdempotencyPurge(responsesErased: 0, recordsDeleted: 150, batches: 3))
        }
    }
}
