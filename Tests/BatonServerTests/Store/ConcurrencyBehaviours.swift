import BatonStoreTestSupport
import BatonTestSupport
import Foundation
import Testing

@testable import BatonServer

/// Races that prove the store's atomicity: many tasks (and two store instances, as two backend processes
/// would be) on one key, webhook id or job, with exactly one winner.
enum ConcurrencyBehaviours {
    static let contenders = 64

    /// `contenders` claims of one key at once, spread over `stores`.
    private static func race(
        _ stores: [any Store], now: Date, leaseUntil: Date
    ) async throws -> [(owner: String, outcome: IdempotencyClaim)] {
        try await withThrowingTaskGroup(of: (String, IdempotencyClaim).self) { group in
            for index in 0..<contenders {
                let store = stores[index % stores.count]
                group.addTask {
                    let owner = "owner-\(index)"
                    let outcome = try await store.claim(
                        user: "u", key: "double-tap", fingerprint: "f", owner: owner, leaseUntil: leaseUntil, now: now)
                    return (owner, outcome)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    private static func checkOneWinner(
        _ results: [(owner: String, outcome: IdempotencyClaim)], winning: IdempotencyClaim, store: any Store
    ) async throws {
        let winners = results.filter { $0.outcome == winning }
        #expect(winners.count == 1, "exactly one \(winning)")
        let waiting = results.filter { if case .inProgress = $0.outcome { true } else { false } }
        #expect(waiting.count == contenders - 1)
        let holder = try #require(try await store.idempotencyRecord(user: "u", key: "double-tap"))
        #expect(holder.leaseOwner == winners.first?.owner)
        for case .inProgress(let record) in results.map(\.outcome) { #expect(record.leaseOwner == holder.leaseOwner) }
    }

    static func concurrentClaimsOfOneKeyHaveOneWinner(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            let results = try await race([store], now: at(0), leaseUntil: at(30))
            try await checkOneWinner(results, winning: .claimed, store: store)
        }
    }

    static func aLapsedLeaseIsTakenOverExactlyOnce(_ engine: StoreEngine) async throws {
        try await withStore(engine) { store throws in
            #expect(
                try await store.claim(
                    user: "u", key: "double-tap", fingerprint: "f", owner: "crashed", leaseUntil: at(30), now: at(0))
                    == .claimed)
            let results = try await race([store], now: at(31), leaseUntil: at(61))
            try await checkOneWinner(results, winning: .tookOver, store: store)
        }
    }

    static func twoStoreInstancesRacingOnOneKeyHaveOneWinner(_ engine: StoreEngine) async throws {
        let database = try TemporaryDatabase(engine)
        defer { database.remove() }
        let first = try await database.open()
        let second = try await database.open()
        let claims = try await race([first, second], now: at(0), leaseUntil: at(30))
        try await checkOneWinner(claims, winning: .claimed, store: second)
        let takeovers = try await race([second, first], now: at(30), leaseUntil: at(60))
        try await checkOneWinner(takeovers, winning: .tookOver, store: first)
        await first.close()
        await second.close()
    }

    static func aRedeliveredWebhookIsStoredOnce(_ engine: StoreEngine) async throws {
        let database = try TemporaryDatabase(engine)
        defer { database.remove() }
        let stores = [try await database.open(), try await database.open()]
        let inserted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<contenders {
                let store = stores[index % 2]
                group.addTask {
                    try await store.recordWebhookEvent(
                        WebhookEventRecord(
                            provider: .privue, webhookID: "msg_dup", eventType: "verification.updated",
                            payload: [UInt8(index)], receivedAt: at(Double(index))))
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(inserted == 1)
        let events = try await stores[0].claimWebhookEvents(owner: "w", leaseUntil: at(999), now: at(100), limit: 10)
        #expect(events.count == 1)
        for store in stores { await store.close() }
    }

    static func concurrentWorkersNeverShareAWebhookEvent(_ engine: StoreEngine) async throws {
        let database = try TemporaryDatabase(engine)
        defer { database.remove() }
        let stores = [try await database.open(), try await database.open()]
        for index in 0..<40 {
            _ = try await stores[0].recordWebhookEvent(
                WebhookEventRecord(
                    provider: .bb, webhookID: "msg_\(index)", eventType: "e", payload: [],
                    receivedAt: at(Double(index))))
        }
        let batches = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<8 {
                let store = stores[worker % 2]
                group.addTask {
                    try await store.claimWebhookEvents(owner: "w\(worker)", leaseUntil: at(500), now: at(100), limit: 5)
                        .map(\.webhookID)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let all = batches.flatMap { $0 }
        #expect(all.count == 40)
        #expect(Set(all).count == 40)
        for store in stores { await store.close() }
    }

    static func oneInstanceRunsAJob(_ engine: StoreEngine) async throws {
        let database = try TemporaryDatabase(engine)
        defer { database.remove() }
        let stores = [try await database.open(), try await database.open()]
        for (round, now) in [(0, at(0)), (1, at(60))] {
            let acquired = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<contenders {
                    let store = stores[index % 2]
                    group.addTask {
                        try await store.tryAcquireLease(
                            job: "catalog-sync", owner: "instance-\(round)-\(index)", until: now.addingTimeInterval(60),
                            now: now)
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(acquired == 1, "round \(round)")
        }
        for store in stores { await store.close() }
    }
}
