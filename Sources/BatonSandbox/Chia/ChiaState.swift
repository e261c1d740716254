import BatonCore
import BatonCrypto
import Foundation

/// Chia's state: the current catalog publication, the image assets, and handoff sessions keyed by
/// `Idempotency-Key`, each forgotten once `SandboxLifetimes.chiaIdempotencyRetention` has passed since its creation
/// (amortised O(1) per share, oldest first). Pure of HTTP; the routes in `ChiaRoutes` translate.
public actor ChiaState {
    /// The encoded current publication and its validator.
    public struct EncodedCatalog: Sendable {
        /// The publication.
        public let publication: CatalogPublication
        /// The JSON body served (sorted keys, RFC 3339 dates).
        public let body: [UInt8]
        /// The strong ETag: the quoted SHA-256 of `body`.
        public let etag: String
    }

    private let clock: SandboxClock
    private let lifetimes: SandboxLifetimes
    private let neutralOrigin: String?
    private var origin: WebOrigin
    private var customItems: [CatalogItem]?
    private var catalog: EncodedCatalog?
    private var publicationCount = 0
    private var sessionsByKey: [IdempotencyKey: ChiaHandoffSession] = [:]
    private var keysByToken: [String: IdempotencyKey] = [:]
    private var sessionCount = 0
    /// Every remembered session's key in creation order, from `creationOrder[oldest]` on: what ages out first.
    private var creationOrder: [IdempotencyKey] = []
    private var oldest = 0

    /// Creates Chia's state on `origin` (the scheme and authority its URLs use, e.g. `http://127.0.0.1:9001`).
    public init(configuration: SandboxConfiguration, origin: WebOrigin) {
        self.clock = configuration.clock
        self.lifetimes = configuration.lifetimes
        self.neutralOrigin = configuration.chiaNeutralOrigin
        self.origin = origin
    }

    /// The sandbox clock's current time.
    public var now: Date { clock.now() }

    /// Uses `origin` for every URL made from now on (set once the server knows its port).
    public func useOrigin(_ origin: WebOrigin) {
        self.origin = origin
        catalog = nil
    }

    /// The current publication, publishing a fresh one (new id, same items) when none exists or it has expired.
    ///
    /// - Throws: ``CatalogEncodingError`` when a fresh publication cannot be encoded.
    public func currentCatalog() throws(CatalogEncodingError) -> EncodedCatalog {
        let now = clock.now()
        if let catalog, !catalog.publication.isExpired(at: now) { return catalog }
        return try publish(items: nil, lifetime: nil)
    }

    /// Publishes `items` (the fixtures when `nil`) valid for `lifetime` seconds (the configured lifetime when `nil`).
    ///
    /// - Throws: ``CatalogEncodingError`` when the publication cannot be encoded as JSON; nothing changes then (the
    ///   previous publication, items and count stay).
    @discardableResult
    public func publish(items: [CatalogItem]?, lifetime: TimeInterval?) throws(CatalogEncodingError) -> EncodedCatalog {
        let now = clock.now()
        let publication = CatalogPublication(
            id: "pub_\(publicationCount + 1)_\(Int(now.timeIntervalSince1970))", publishedAt: now,
            expiresAt: now.addingTimeInterval(lifetime ?? lifetimes.chiaPublication),
            items: items ?? customItems ?? ChiaFixtures.items(neutralOrigin: neutralOrigin ?? origin.text))
        let body: [UInt8]
        do {
            body = Array(try RFC3339.jsonEncoder().encode(publication))
        } catch {
            throw CatalogEncodingError()
        }
        if let items { customItems = items }
        publicationCount += 1
        let encoded = EncodedCatalog(publication: publication, body: body, etag: "\"\(SHA256.hexDigest(body))\"")
        catalog = encoded
        return encoded
    }

    /// The image asset `id`, or `nil` when Chia has none by that id.
    func asset(_ id: String) -> ChiaImages.Asset? { ChiaFixtures.assets[id] }

    /// Creates (or replays) the handoff session for `key` (see ``ChiaHandoffOutcome``).
    public func createHandoffSession(key: IdempotencyKey, request: ChiaHandoffRequest) -> ChiaHandoffOutcome {
        let now = clock.now()
        forgetSessions(createdAtOrBefore: now.addingTimeInterval(-lifetimes.chiaIdempotencyRetention))
        if let existing = sessionsByKey[key] {
            guard existing.fingerprint == request.fingerprint else { return .keyReused }
            guard !existing.isExpired(at: now) else { return .expired }
            return .replayed(existing, url: url(of: existing))
        }
        let items = (try? currentCatalog())?.publication.items ?? []
        guard let item = items.first(where: { $0.id == request.catalogItemID }) else { return .itemNotFound }
        guard item.status == CatalogItem.publishedStatus, item.sharingAllowed, let disclosure = item.disclosure else {
            return .sharingNotAllowed
        }
        guard disclosure.disclosureVersion == request.disclosureVersion else { return .disclosureVersionMismatch }
        sessionCount += 1
        let session = ChiaHandoffSession(
            id: "hs_\(sessionCount)", token: RandomToken.make("phs_", length: 32), idempotencyKey: key,
            fingerprint: request.fingerprint, request: request, createdAt: now,
            expiresAt: now.addingTimeInterval(lifetimes.chiaHandoffSession))
        sessionsByKey[key] = session
        keysByToken[session.token] = key
        creationOrder.append(key)
        return .created(session, url: url(of: session))
    }

    /// Forgets the sessions created at or before `cutoff` (their retention reached), oldest first, stopping at the
    /// first younger one (creation order is time order on a clock that does not move back; if it did, a session is
    /// kept longer, never dropped early). The order's consumed prefix is cut off once it is most of the array, so
    /// each key is moved O(1) times.
    private func forgetSessions(createdAtOrBefore cutoff: Date) {
        while oldest < creationOrder.count {
            let key = creationOrder[oldest]
            if let session = sessionsByKey[key] {
                guard session.createdAt <= cutoff else { break }
                sessionsByKey[key] = nil
                keysByToken[session.token] = nil
            }
            oldest += 1
        }
        if oldest >= 1024, oldest * 2 >= creationOrder.count {
            creationOrder.removeFirst(oldest)
            oldest = 0
        }
    }

    /// Opens the journey `token` (`phs_…`): the session and its item while valid, `nil` when expired or unknown.
    public func openJourney(token: String) -> (session: ChiaHandoffSession, item: CatalogItem?)? {
        guard let key = keysByToken[token], var session = sessionsByKey[key], !session.isExpired(at: clock.now())
        else { return nil }
        session.opens += 1
        sessionsByKey[key] = session
        let item = catalog?.publication.items.first { $0.id == session.request.catalogItemID }
        return (session, item)
    }

    /// The published item whose neutral page is `/c/<slug>`, if any.
    public func neutralItem(slug: String) -> CatalogItem? {
        (try? currentCatalog())?.publication.items.first { ChiaFixtures.slug(of: $0.id) == slug }
    }

    /// Every handoff session, oldest first.
    public func sessions() -> [ChiaHandoffSession] {
        sessionsByKey.values.sorted { ($0.createdAt, $0.id.count, $0.id) < ($1.createdAt, $1.id.count, $1.id) }
    }

    /// How many sessions and ordered keys are held (what the retention bounds; for tests).
    var heldEntries: (sessions: Int, tokens: Int, order: Int) {
        (sessionsByKey.count, keysByToken.count, creationOrder.count)
    }

    /// Forgets every session and custom publication.
    public func reset() {
        sessionsByKey = [:]
        keysByToken = [:]
        creationOrder = []
        oldest = 0
        customItems = nil
        catalog = nil
    }

    private func url(of session: ChiaHandoffSession) -> SensitiveURL {
        SensitiveURL(origin: origin, path: "/h/\(session.token)")
    }
}

/// A catalog publication `JSONEncoder` refused (no value the sandbox makes is one; a custom item could be).
public struct CatalogEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    public var description: String { "the catalog publication could not be encoded as JSON" }
}
