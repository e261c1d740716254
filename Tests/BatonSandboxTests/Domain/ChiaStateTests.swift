import BatonCore
import BatonCrypto
import BatonTestSupport
import Foundation
import Testing

@testable import BatonSandbox

@Suite struct ChiaStateTests {
    let clock = ManualClock()

    func makeState() throws -> ChiaState {
        ChiaState(
            configuration: try Harness.configuration(clock: clock, sleeps: SleepRecorder()),
            origin: .loopback(port: 9001))
    }

    static let request = ChiaHandoffRequest(
        catalogItemID: "cat_weight_care", disclosureVersion: ChiaFixtures.disclosureVersion,
        affirmedAt: "2025-06-15T10:00:00Z")

    @Test func sameKeyAndBodyReplaysTheSameSession() async throws {
        let state = try makeState()
        let key = IdempotencyKey.random()
        guard case .created(let first, let url) = await state.createHandoffSession(key: key, request: Self.request)
        else { Issue.record("expected created"); return }
        #expect(url.revealForPresentation().hasPrefix("http://127.0.0.1:9001/h/phs_"))
        #expect(first.expiresAt == clock.now.addingTimeInterval(15 * 60))
        clock.advance(by: 60)
        guard
            case .replayed(let again, let replayedURL) = await state.createHandoffSession(
                key: key, request: Self.request)
        else { Issue.record("expected replayed"); return }
        #expect(again.id == first.id)
        #expect(replayedURL == url)
        #expect(await state.sessions().count == 1)
    }

    @Test func sameKeyWithADifferentBodyIsRefused() async throws {
        let state = try makeState()
        let key = IdempotencyKey.random()
        _ = await state.createHandoffSession(key: key, request: Self.request)
        let other = ChiaHandoffRequest(
            catalogItemID: "cat_weight_care", disclosureVersion: ChiaFixtures.disclosureVersion,
            affirmedAt: "2025-06-15T10:00:01Z")
        #expect(await state.createHandoffSession(key: key, request: other) == .keyReused)
        #expect(await state.sessions().count == 1)
    }

    @Test func sessionsExpireAfterFifteenMinutes() async throws {
        let state = try makeState()
        let key = IdempotencyKey.random()
        guard case .created(_, let url) = await state.createHandoffSession(key: key, request: Self.request) else {
            Issue.record("expected created")
            return
        }
        let token = String(url.revealForPresentation().split(separator: "/").last!)
        clock.advance(by: 15 * 60 - 1)
        #expect(await state.openJourney(token: token) != nil)
        clock.advance(by: 1)
        #expect(await state.openJourney(token: token) == nil)
        #expect(await state.createHandoffSession(key: key, request: Self.request) == .expired)
    }

    /// A key replays, then answers 410, for the retention after its creation; after that Chia has forgotten it
    /// (and its journey): the same key creates a new session.
    @Test func aKeyIsForgottenOnceTheRetentionHasPassed() async throws {
        let state = try makeState()
        let key = IdempotencyKey.random()
        guard case .created(let first, _) = await state.createHandoffSession(key: key, request: Self.request) else {
            Issue.record("expected created")
            return
        }
        clock.advance(by: 24 * 60 * 60 - 1)
        #expect(await state.createHandoffSession(key: key, request: Self.request) == .expired)
        clock.advance(by: 1)
        guard case .created(let second, _) = await state.createHandoffSession(key: key, request: Self.request) else {
            Issue.record("expected a new session once the key was forgotten")
            return
        }
        #expect(second.id != first.id)
        #expect(await state.sessions().map(\.id) == [second.id])
    }

    /// At a steady share rate the sandbox holds rate x retention sessions, however long it runs (it kept every
    /// session forever: a benchmark's millions of shares grew it by ~0.7 KiB each).
    @Test(arguments: [1, 7])
    func heldSessionsAreBoundedByRateTimesRetention(sharesPerSecond: Int) async throws {
        var configuration = try Harness.configuration(clock: clock, sleeps: SleepRecorder())
        configuration.lifetimes.chiaHandoffSession = 10
        configuration.lifetimes.chiaIdempotencyRetention = 20
        let state = ChiaState(configuration: configuration, origin: .loopback(port: 9001))
        var largestOrder = 0
        // Past 1,024 forgotten entries, so the creation order is compacted at least once at either rate.
        for _ in 0..<1_500 {
            for _ in 0..<sharesPerSecond {
                _ = await state.createHandoffSession(key: .random(), request: Self.request)
            }
            largestOrder = max(largestOrder, await state.heldEntries.order)
            clock.advance(by: 1)
            // Calls to an idle actor need not suspend: without this the loop holds a pool thread to its end
            // (docs/reliability.md, "Tests under CPU load").
            await Task.yield()
        }
        let held = await state.heldEntries
        #expect(held.sessions == 20 * sharesPerSecond)
        #expect(held.tokens == held.sessions)
        #expect(largestOrder <= 2 * 20 * sharesPerSecond + 1024 + sharesPerSecond)
    }

    @Test func refusesItemsThatCannotBeShared() async throws {
        let state = try makeState()
        func attempt(_ item: String, _ version: String = ChiaFixtures.disclosureVersion) async -> ChiaHandoffOutcome {
            await state.createHandoffSession(
                key: .random(),
                request: ChiaHandoffRequest(
                    catalogItemID: item, disclosureVersion: version, affirmedAt: "2025-06-15T10:00:00Z"))
        }
        #expect(await attempt("cat_nope") == .itemNotFound)
        #expect(await attempt("cat_skin_consult") == .sharingNotAllowed)
        #expect(await attempt("cat_retired") == .sharingNotAllowed)
        #expect(await attempt("cat_weight_care", "1999-01-01") == .disclosureVersionMismatch)
    }

    @Test func publicationRenewsOnceExpiredAndTheETagFollowsTheBody() async throws {
        let state = try makeState()
        let first = try await state.currentCatalog()
        #expect(first.etag == "\"\(SHA256.hexDigest(first.body))\"")
        #expect(try await state.currentCatalog().etag == first.etag)
        clock.advance(by: 24 * 60 * 60)
        let second = try await state.currentCatalog()
        #expect(second.publication.id != first.publication.id)
        #expect(second.etag != first.etag)
        let decoded = try RFC3339.jsonDecoder().decode(CatalogPublication.self, from: Data(second.body))
        #expect(decoded == second.publication)
    }

    /// The fixtures, once mirrored, reach every decision of CONTRACTS §3, in sandbox mode (loopback http allowed)
    /// with the sandbox's own neutral pages, and anywhere with an https neutral origin.
    @Test(arguments: [nil, "https://chia.example"])
    func fixturesExerciseEveryDecisionPath(neutralOrigin: String?) async throws {
        try await checkDecisionPaths(
            neutralOrigin: neutralOrigin, urls: neutralOrigin == nil ? .development : .production)
    }

    func checkDecisionPaths(neutralOrigin: String?, urls: URLPolicy) async throws {
        var configuration = try Harness.configuration(clock: clock, sleeps: SleepRecorder())
        configuration.chiaNeutralOrigin = neutralOrigin
        let state = ChiaState(configuration: configuration, origin: .loopback(port: 9001))
        let publication = try await state.currentCatalog().publication
        let evidence = ServiceStateEvidence(
            userID: "u1", authenticated: true, accountState: "active", region: "US", schemaVersion: 1,
            derivedAt: clock.now)
        var decisions: [String: String] = [:]
        for var item in publication.items {
            if let asset = item.imageAssetID, await state.asset(asset) != nil {
                item.mirroredImageURL = "https://partner.example/assets/\(asset).png"
            }
            let decision = resolveCatalogHandoff(
                item: item, publication: publication, evidence: evidence, now: clock.now, urls: urls)
            decisions[item.id] = "\(decision)"
        }
        #expect(decisions["cat_weight_care"]?.hasPrefix("shareOrNeutral") == true)
        #expect(decisions["cat_skin_consult"]?.contains("sharingNotAllowed") == true)
        #expect(decisions["cat_sleep_clinic"]?.contains("regionMismatch") == true)
        #expect(decisions["cat_hair_care"]?.hasPrefix("hidden") == true)
        #expect(decisions["cat_retired"]?.contains("notPublished") == true)
    }

    @Test func assetsAreRealImages() {
        #expect(ChiaImages.png.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(ChiaImages.png.bytes.suffix(8) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        #expect(ChiaImages.jpeg.bytes.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(ChiaImages.jpeg.bytes.suffix(2) == [0xFF, 0xD9])
    }

    /// The byte literals are, to the byte, the files libpng and libjpeg wrote (once decoded from base64 at run time).
    @Test func assetsAreTheOriginalFiles() {
        #expect(
            SHA256.hexDigest(ChiaImages.png.bytes) == "e58c7b921eac60fda73aff56f07e55368e12d04a68d9b796f7089a283982901d"
        )
        #expect(
            SHA256.hexDigest(ChiaImages.jpeg.bytes)
                == "53b60a69821b4d612d21c30313187e3fd30e9dd593ebc16d520c3c75b1aa6717")
    }

    @Test(arguments: [
        #"{"catalogItemId":"a","disclosureVersion":"v","affirmed":false,"affirmedAt":"2025-06-15T10:00:00Z"}"#,
        #"{"catalogItemId":"a","disclosureVersion":"v","affirmed":1,"affirmedAt":"2025-06-15T10:00:00Z"}"#,
        #"{"catalogItemId":"a","disclosureVersion":"v","affirmed":true,"affirmedAt":"yesterday"}"#,
        #"{"catalogItemId":"a","disclosureVersion":"v","affirmed":true}"#,
        #"{"catalogItemId":"a","disclosureVersion":"v","affirmed":true,"affirmedAt":"2025-06-15T10:00:00Z","x":1}"#,
        #"{"catalogItemId":"","disclosureVersion":"v","affirmed":true,"affirmedAt":"2025-06-15T10:00:00Z"}"#,
        "[]", "",
    ])
    func malformedHandoffBodiesAreRejected(_ body: String) {
        #expect(ChiaHandoffRequest(json: Array(body.utf8)) == nil)
    }

    @Test func equalBodiesHaveEqualFingerprintsWhateverTheirLayout() throws {
        let one = try #require(
            ChiaHandoffRequest(
                json: Array(
                    #"{"catalogItemId":"a","disclosureVersion":"v","affirmed":true,"affirmedAt":"2025-06-15T10:00:00Z"}"#
                        .utf8)))
        let two = try #require(
            ChiaHandoffRequest(
                json: Array(
                    #"{ "affirmedAt":"2025-06-15T10:00:00Z", "affirmed":true, "disclosureVersion":"v", "catalogItemId":"a" }"#
                        .utf8)))
        #expect(one.fingerprint == two.fingerprint)
    }
}
