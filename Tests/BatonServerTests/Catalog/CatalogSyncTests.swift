import BatonCore
import BatonHTTP
import BatonSandbox
import Foundation
import Testing

@testable import BatonServer

/// The scheduled sync against the Chia sandbox over real HTTP on 127.0.0.1: no sleeps, a manual clock, fixed jitter.
@Suite("Catalog sync against the sandbox")
struct CatalogSyncTests {
    @Test func aFirstSyncStoresThePublicationAndMirrorsEveryImageThatExists() async throws {
        try await withCatalogHarness { harness in
            let outcome = await harness.sync.syncOnce()
            // Five items, four distinct assets; img_hair_care does not exist at Chia (404), so its item is hidden.
            guard case .updated(let id, items: 5, itemsWithImage: 4, imagesRejected: 1) = outcome else {
                Issue.record("unexpected outcome \(outcome)")
                return
            }
            let status = harness.sync.status
            #expect(status.publicationID == id && status.itemCount == 5 && status.mirroredItemCount == 4)
            #expect(status.syncsUpdated == 1 && status.imagesMirrored == 3 && status.imagesRejected == 1)
            #expect(status.nextAttemptAt == harness.clock.now.addingTimeInterval(harness.interval))
            #expect(status.isLeader && !status.isSyncing)

            // The snapshot is stored, so a restarted instance serves it before talking to Chia.
            let stored = try #require(try await harness.store.latestCatalogSnapshot())
            #expect(try CatalogSnapshotBody.decode(stored.body).publication.id == id)
            let requests = try await harness.chiaRequests()
            #expect(requests.first == "GET /v2/catalog 200")
            #expect(requests.filter { $0.hasPrefix("GET /v2/assets/") }.count == 4)

            let lines = harness.events.all.map(\.description)
            #expect(lines.contains("catalog sync: fetched publication \(id) (5 items, 4 images to mirror)"))
            #expect(lines.last?.contains("5 items, 4 with a mirrored image, 1 image rejected") == true)
            #expect(!lines.joined().contains("img_") && !lines.joined().contains("127.0.0.1"))
        }
    }

    @Test func anUnchangedCatalogIsNotModifiedAndFailedImagesAreRetried() async throws {
        try await withCatalogHarness { harness in
            _ = await harness.sync.syncOnce()
            harness.clock.advance(by: 300)
            #expect(await harness.sync.syncOnce() == .notModified)
            let status = harness.sync.status
            #expect(status.syncsNotModified == 1 && status.consecutiveFailures == 0)
            let requests = try await harness.chiaRequests()
            #expect(
                requests.filter { $0.hasPrefix("GET /v2/catalog") } == ["GET /v2/catalog 200", "GET /v2/catalog 304"])
            // Only the image that failed is tried again.
            #expect(requests.last == "GET /v2/assets/img_hair_care 404")
        }
    }

    @Test func failuresBackOffWithJitterAndKeepTheLastGoodPublication() async throws {
        try await withCatalogHarness { harness in
            _ = await harness.sync.syncOnce()
            let served = try #require(harness.sync.cache.catalog?.publication.id)
            try await harness.inject(#"{"endpoint": "GET /v2/catalog", "fault": "status", "status": 503, "count": 3}"#)

            // Equal jitter: base/2 + base/2 * jitter, base = 5 s doubling.
            let expected: [(jitter: Double, delay: TimeInterval)] = [(0, 2.5), (1, 10), (0.5, 15)]
            for (attempt, step) in expected.enumerated() {
                harness.jitter.set(step.jitter)
                let now = harness.clock.now
                #expect(await harness.sync.syncOnce() == .failed(CatalogSyncFailure(code: "status_503")))
                let status = harness.sync.status
                #expect(status.consecutiveFailures == attempt + 1 && status.lastFailure == "status_503")
                #expect(status.nextAttemptAt == now.addingTimeInterval(step.delay))
                #expect(harness.sync.cache.catalog?.publication.id == served)
                harness.clock.advance(by: step.delay)
            }
            #expect(harness.events.all.last?.description.contains("failed (status_503)") == true)
            let cards = try await harness.service.cards(for: AuthenticatedUser(id: "alice"), now: harness.clock.now)
            #expect(cards.map(\.id) == ["cat_weight_care", "cat_skin_consult"])

            // The fault is spent: the next pass succeeds and the schedule returns to the interval.
            let now = harness.clock.now
            #expect(await harness.sync.syncOnce() == .notModified)
            #expect(harness.sync.status.consecutiveFailures == 0)
            #expect(harness.sync.status.nextAttemptAt == now.addingTimeInterval(harness.interval))
            #expect(harness.sync.status.syncsFailed == 3)
        }
    }

    @Test func aRetryAfterIsHonouredAndATransportFailureIsAFailure() async throws {
        try await withCatalogHarness { harness in
            try await harness.inject(
                #"{"endpoint": "GET /v2/catalog", "fault": "status", "status": 429, "retryAfterSeconds": 40, "count": 1}"#
            )
            harness.jitter.set(0)
            let now = harness.clock.now
            #expect(await harness.sync.syncOnce() == .failed(CatalogSyncFailure(code: "status_429", retryAfter: 40)))
            #expect(harness.sync.status.nextAttemptAt == now.addingTimeInterval(40))
            #expect(harness.sync.cache.catalog == nil)

            // Two drops: curl itself retries once when a reused connection turns out closed.
            try await harness.inject(#"{"endpoint": "GET /v2/catalog", "fault": "drop", "count": 2}"#)
            let outcome = await harness.sync.syncOnce()
            guard case .failed(let failure) = outcome else {
                Issue.record("expected a failure, got \(outcome)")
                return
            }
            #expect(failure.code.hasPrefix("transport_"))
            #expect(harness.sync.status.consecutiveFailures == 2)
            #expect(await harness.sync.syncOnce() != .failed(failure))
        }
    }

    @Test func anExpiredPublicationHidesEveryItemEvenWhenChiaIsDown() async throws {
        try await withCatalogHarness { harness in
            try await harness.sandbox.chia.publish(items: nil, lifetime: 600)
            _ = await harness.sync.syncOnce()
            let alice = AuthenticatedUser(id: "alice")
            #expect(try await harness.service.cards(for: alice, now: harness.clock.now).count == 2)

            try await harness.inject(#"{"endpoint": "GET /v2/catalog", "fault": "status", "status": 500}"#)
            harness.clock.advance(by: 599)
            #expect(await harness.sync.syncOnce() == .failed(CatalogSyncFailure(code: "status_500")))
            #expect(try await harness.service.cards(for: alice, now: harness.clock.now).count == 2)
            #expect(
                try await harness.service.handoff(for: alice, catalogItemID: "cat_weight_care", now: harness.clock.now)
                    != nil)

            harness.clock.advance(by: 1)
            #expect(try await harness.service.cards(for: alice, now: harness.clock.now).isEmpty)
            #expect(
                try await harness.service.handoff(for: alice, catalogItemID: "cat_weight_care", now: harness.clock.now)
                    == nil)
            #expect(
                harness.sync.status.metricsText(now: harness.clock.now).contains("baton_catalog_publication_expired 1"))
        }
    }

    @Test func exactlyOneInstanceSyncsAndTheOthersServeWhatItStored() async throws {
        try await withCatalogHarness { harness in
            let other = try await harness.makeInstance(instanceID: "instance-b")
            #expect(await other.sync.syncOnce() != .follower)
            // Instance A finds the lease taken and reloads B's snapshot from the shared database.
            #expect(await harness.sync.syncOnce() == .follower)
            #expect(!harness.sync.status.isLeader && harness.sync.status.followerReloads == 1)
            #expect(harness.sync.cache.catalog?.publication.id == other.sync.cache.catalog?.publication.id)
            let cards = try await harness.service.cards(for: AuthenticatedUser(id: "alice"), now: harness.clock.now)
            #expect(cards.count == 2)
            #expect(try await harness.chiaRequests().filter { $0.hasPrefix("GET /v2/catalog") }.count == 1)

            // B stops and gives the lease up; A takes over at once and continues with If-None-Match.
            await other.sync.stop()
            await other.store.close()
            #expect(await harness.sync.syncOnce() == .notModified)
            #expect(harness.sync.status.isLeader)
        }
    }

    @Test func startRunsPassesOnTheScheduleAndStopEndsThem() async throws {
        // The loop's sleep reports the delay it was asked for, then waits until the loop is cancelled.
        let (delays, continuation) = AsyncStream.makeStream(of: Duration.self)
        try await withCatalogHarness(sleep: { delay in
            continuation.yield(delay)
            try await Task.sleep(for: .seconds(86_400))
        }) { harness in
            await harness.sync.start()
            var iterator = delays.makeAsyncIterator()
            #expect(await iterator.next() == .seconds(300))
            #expect(harness.sync.status.syncsUpdated == 1 && harness.sync.status.isLeader)
            await harness.sync.stop()
            #expect(!harness.sync.status.isLeader)
            // The lease was given up: another instance takes it at once.
            let acquired = try await harness.store.tryAcquireLease(
                job: CatalogSync.leaseJob, owner: "instance-c", until: harness.clock.now.addingTimeInterval(60),
                now: harness.clock.now)
            #expect(acquired)
        }
    }
}
