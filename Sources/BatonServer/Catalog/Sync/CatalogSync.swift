import BatonCore
import BatonHTTP
import Foundation
import Synchronization

/// The scheduled Chia catalog sync: one instance (the lease holder) fetches with `If-None-Match`, mirrors the
/// images and stores the result; every instance serves the last good publication from its ``CatalogCache``.
///
/// ```swift
/// let sync = CatalogSync(configuration: …, store: store, transport: transport, mirror: mirror, cache: cache)
/// await sync.start()          // runs passes on the schedule until stopped
/// …
/// await sync.stop()           // cancels the loop and gives the lease up
/// ```
///
/// A failed pass backs off with jitter (``CatalogSyncSchedule``) and keeps serving the last good publication;
/// once that publication expires its items are hidden by the decision, never shown stale. Tests drive
/// ``syncOnce()`` directly with an injected clock and jitter; nothing here sleeps except the loop, through the
/// injected `sleep`.
public actor CatalogSync {
    /// What the sync needs to know.
    public struct Configuration: Sendable {
        /// Chia's API origin (`https://api.chia.example`, or loopback http in development).
        public var apiOrigin: String
        /// The Chia API key, sent as a bearer token to the API and asset origins only.
        public var apiKey: Secret
        /// The backend's public origin, prefix of the neutral `/assets/<sha256>.<ext>` URLs.
        public var publicOrigin: String
        /// When passes run.
        public var schedule: CatalogSyncSchedule
        /// How long the sync lease lasts; renewed each pass and during long mirroring.
        public var leaseDuration: TimeInterval
        /// This instance's lease owner name.
        public var instanceID: String
        /// The timeout of the catalog request.
        public var requestTimeout: Duration
        /// Images downloaded at once.
        public var imageConcurrency: Int
        /// Development against the sandbox: loopback `http` neutral, policy and image URLs count as secure (the
        /// configuration's `allowsLoopbackHTTP`; see `URLPolicy`). Never set in production.
        public var allowsLoopbackHTTP: Bool
        /// The hosts an item's neutral URL may have (`chia.journeyHosts`): an item whose neutral URL is elsewhere is
        /// hidden, as it would go straight to the OS browser. `nil` checks no host.
        public var linkHosts: JourneyHostPins?

        /// Creates a configuration; the lease lasts two intervals plus a minute unless told otherwise.
        public init(
            apiOrigin: String, apiKey: Secret, publicOrigin: String, schedule: CatalogSyncSchedule,
            leaseDuration: TimeInterval? = nil, instanceID: String = "baton-\(UUID().uuidString.lowercased())",
            requestTimeout: Duration = .seconds(30), imageConcurrency: Int = 8, allowsLoopbackHTTP: Bool = false
        ) {
            self.allowsLoopbackHTTP = allowsLoopbackHTTP
            self.apiOrigin = apiOrigin.hasSuffix("/") ? String(apiOrigin.dropLast()) : apiOrigin
            self.apiKey = apiKey
            self.publicOrigin = publicOrigin
            self.schedule = schedule
            self.leaseDuration = leaseDuration ?? (schedule.interval * 2 + 60)
            self.instanceID = instanceID
            self.requestTimeout = requestTimeout
            self.imageConcurrency = max(1, imageConcurrency)
        }
    }

    /// The clock, randomness and sleeping the sync uses; tests inject all three.
    public struct Environment: Sendable {
        /// The current time.
        public var now: @Sendable () -> Date
        /// A random value in `0...1` for backoff jitter.
        public var jitter: @Sendable () -> Double
        /// Sleeps between passes (throws on cancellation).
        public var sleep: @Sendable (Duration) async throws -> Void

        /// Creates an environment; the defaults are the system clock, `Double.random` and `Task.sleep`.
        public init(
            now: @escaping @Sendable () -> Date = Date.init,
            jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
        ) {
            self.now = now
            self.jitter = jitter
            self.sleep = sleep
        }
    }

    /// The lease name all instances compete for.
    public static let leaseJob = "chia-catalog-sync"

    let configuration: Configuration
    let environment: Environment
    let store: any Store
    let transport: any HTTPTransport
    let mirror: ImageMirror
    /// The catalog this instance serves.
    public nonisolated let cache: CatalogCache
    let onEvent: @Sendable (CatalogSyncEvent) -> Void
    let statusBox = Mutex(CatalogSyncStatus())
    private var loop: Task<Void, Never>?
    private var passRunning = false

    /// Creates the sync; nothing runs until ``start()`` (or ``syncOnce()``).
    ///
    /// - Parameters:
    ///   - transport: for the catalog request.
    ///   - mirror: downloads and stores images (its own transport and size cap).
    ///   - cache: the catalog served by ``CatalogService``.
    ///   - onEvent: progress for `baton serve` output (counts and codes only).
    public init(
        configuration: Configuration, store: any Store, transport: any HTTPTransport, mirror: ImageMirror,
        cache: CatalogCache, environment: Environment = Environment(),
        onEvent: @escaping @Sendable (CatalogSyncEvent) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.environment = environment
        self.store = store
        self.transport = transport
        self.mirror = mirror
        self.cache = cache
        self.onEvent = onEvent
    }

    /// A snapshot of what the sync is doing, for `/metrics` (see ``CatalogSyncStatus/metricsText(now:)``).
    public nonisolated var status: CatalogSyncStatus { statusBox.withLock { $0 } }

    /// Starts running passes on the schedule; a second call does nothing.
    public func start() {
        guard loop == nil else { return }
        loop = Task { [weak self] in
            while !Task.isCancelled {
                guard let self, let delay = await self.passAndSchedule() else { return }
                do {
                    try await self.environment.sleep(.milliseconds(Int64(delay * 1000)))
                } catch {
                    return
                }
            }
        }
    }

    /// Stops the loop (waiting for a running pass to notice) and gives the lease up so another instance can
    /// take over at once.
    public func stop() async {
        let running = loop
        loop = nil
        running?.cancel()
        await running?.value
        _ = try? await store.releaseLease(job: Self.leaseJob, owner: configuration.instanceID)
        statusBox.withLock { $0.isLeader = false }
    }

    private func passAndSchedule() async -> TimeInterval? {
        _ = await syncOnce()
        return statusBox.withLock { status in
            status.nextAttemptAt.map { max(0, $0.timeIntervalSince(environment.now())) }
        }
    }

    /// Runs one pass now: takes (or renews) the lease and syncs from Chia, or, when another instance holds it,
    /// reloads the stored publication. Records the outcome in ``status`` with the time of the next pass.
    @discardableResult
    public func syncOnce() async -> CatalogSyncOutcome {
        guard !passRunning else { return .skipped }
        passRunning = true
        defer { passRunning = false }
        let started = environment.now()
        statusBox.withLock {
            $0.lastAttemptAt = started
            $0.isSyncing = true
        }
        let outcome: CatalogSyncOutcome
        do {
            outcome = try await pass(started: started)
        } catch let failure as CatalogSyncFailure {
            outcome = .failed(failure)
        } catch {
            outcome = .failed(CatalogSyncFailure(code: "store"))
        }
        record(outcome)
        return outcome
    }

    private func pass(started: Date) async throws -> CatalogSyncOutcome {
        let leader = try await renewLease(now: started)
        statusBox.withLock { $0.isLeader = leader }
        guard leader else {
            try await reloadFromStore(force: false)
            return .follower
        }
        if cache.catalog == nil { try await reloadFromStore(force: true) }
        return try await fetchAndApply(now: started)
    }

    func renewLease(now: Date) async throws -> Bool {
        do {
            return try await store.tryAcquireLease(
                job: Self.leaseJob, owner: configuration.instanceID,
                until: now.addingTimeInterval(configuration.leaseDuration), now: now)
        } catch {
            throw CatalogSyncFailure(code: "store")
        }
    }

    /// Loads the stored snapshot into the cache when it differs from what is cached (or always, with `force`).
    func reloadFromStore(force: Bool) async throws {
        let snapshot: CatalogSnapshot?
        do {
            snapshot = try await store.latestCatalogSnapshot()
        } catch {
            throw CatalogSyncFailure(code: "store")
        }
        guard let snapshot else { return }
        let current = cache.catalog
        if !force, let current, current.fetchedAt == snapshot.fetchedAt, current.etag == snapshot.etag { return }
        // A snapshot this build cannot read is ignored; the next leader pass replaces it.
        guard let body = try? CatalogSnapshotBody.decode(snapshot.body) else { return }
        cache.replace(
            with: LoadedCatalog(
                body: body, etag: snapshot.etag, fetchedAt: snapshot.fetchedAt,
                publicOrigin: configuration.publicOrigin, allowsLoopbackHTTP: configuration.allowsLoopbackHTTP,
                linkHosts: configuration.linkHosts))
    }

    private func record(_ outcome: CatalogSyncOutcome) {
        let now = environment.now()
        let catalog = cache.catalog
        let event: CatalogSyncEvent? = statusBox.withLock { status in
            status.isSyncing = false
            status.imagesDone = 0
            status.imagesTotal = 0
            status.publicationID = catalog?.publication.id
            status.publicationExpiresAt = catalog?.publication.expiresAt
            status.itemCount = catalog?.publication.items.count ?? 0
            status.mirroredItemCount = catalog?.mirroredItemCount ?? 0
            var retryAfter: TimeInterval?
            var event: CatalogSyncEvent?
            switch outcome {
            case .updated(let id, let items, let withImage, let rejected):
                status.syncsUpdated += 1
                event = .updated(publicationID: id, items: items, itemsWithImage: withImage, imagesRejected: rejected)
            case .notModified:
                status.syncsNotModified += 1
                event = .notModified(publicationID: catalog?.publication.id, items: status.itemCount)
            case .follower:
                status.followerReloads += 1
                event = .follower(publicationID: catalog?.publication.id, items: status.itemCount)
            case .skipped:
                return nil
            case .failed(let failure):
                status.syncsFailed += 1
                status.consecutiveFailures += 1
                status.lastFailure = failure.code
                retryAfter = failure.retryAfter
            }
            if !outcome.isFailure {
                status.consecutiveFailures = 0
                status.lastSuccessAt = now
            }
            let delay = configuration.schedule.delay(
                consecutiveFailures: status.consecutiveFailures, retryAfter: retryAfter, jitter: environment.jitter())
            status.nextAttemptAt = now.addingTimeInterval(delay)
            if case .failed(let failure) = outcome { event = .failed(reason: failure.code, retryIn: delay) }
            return event
        }
        if let event { onEvent(event) }
    }
}
