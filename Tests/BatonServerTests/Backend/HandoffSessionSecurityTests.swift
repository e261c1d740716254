import BatonCore
import BatonCrypto
import BatonHTTP
import Foundation
import Testing

@testable import BatonServer

/// One user's key never reaches another user's journey, and a sealed replay under a sealing key
/// that changed answers 410, never 500.
@Suite("POST /v2/handoff-sessions — keys per user, sealing-key rotation")
struct HandoffSessionSecurityTests {
    @Test(
        "two users sending the same key and body get their own journeys; Chia sees neither app key",
        arguments: BackendEngines.available)
    func sameKeyTwoUsers(engine: StoreEngine) async throws {
        let (fixture, chia) = try await Share.fixture(engine)
        try await fixture.run { api in
            let key = Share.key()
            let alice = try await api.share(key: key, user: "alice")
            let bob = try await api.share(key: key, user: "bob")
            #expect(alice.status == 201 && bob.status == 201)
            #expect(bob.headers["idempotent-replayed"] == nil)
            let aliceURL = try #require(jsonObject(alice)["url"] as? String)
            let bobURL = try #require(jsonObject(bob)["url"] as? String)
            #expect(aliceURL != bobURL)
            #expect(chia.sessionCount == 2)
            let sent = fixture.transport.requests(.post, "/v2/handoff-sessions").compactMap {
                $0.headers["idempotency-key"]
            }
            #expect(sent.count == 2 && Set(sent).count == 2 && !sent.contains(key))
            #expect(sent.allSatisfy { IdempotencyKey($0) != nil })

            // Alice's retry (another request, as after a crash) derives the same upstream key: Chia replays.
            let again = try await api.share(key: key, user: "alice")
            #expect(again.body == alice.body)
            #expect(chia.sessionCount == 2)
        }
    }

    @Test("the derived key matches an independent implementation (scripts/reliability/harness.py)")
    func derivationKnownAnswers() throws {
        let keys = ProviderIdempotencyKeys(secret: Secret(bytes: Array(repeating: 0x2A, count: 32)))
        let appKey = try #require(IdempotencyKey("3f2504e0-4f89-41d3-9a0c-0305e82c3301"))
        #expect(
            keys.key(for: .chiaHandoffSession, user: "alice", appKey: appKey).rawValue
                == "3b1bf8f3-cbdc-47b2-8629-8344b76dde68")
        #expect(
            keys.key(for: .chiaHandoffSession, user: "bob", appKey: appKey).rawValue
                == "48d499d3-0312-4e09-90ce-4eb10948bfb9")
    }

    @Test("without BATON_IDEMPOTENCY_SECRET the derivation secret comes from the token key; with it, from it")
    func derivationSecretSource() throws {
        let derived = try TestConfiguration.make()
        #expect(!derived.idempotencySecretIsConfigured)
        #expect(
            derived.idempotencySecret
                == ProviderIdempotencyKeys.derivedSecret(fromTokenSigningKey: derived.tokenSigningKey))
        var environment = TestConfiguration.environment
        environment["BATON_IDEMPOTENCY_SECRET"] = Data(repeating: 9, count: 32).base64EncodedString()
        let configured = try TestConfiguration.make(environment: environment)
        #expect(configured.idempotencySecretIsConfigured)
        #expect(configured.idempotencySecret == Secret(bytes: Array(repeating: 9, count: 32)))
        environment["BATON_IDEMPOTENCY_SECRET"] = "short"
        #expect(throws: ConfigurationErrors.self) { try TestConfiguration.make(environment: environment) }
    }

    // MARK: Sealing keys

    static let keyA = Data(repeating: 0xA1, count: 32).base64EncodedString()
    static let keyB = Data(repeating: 0xB2, count: 32).base64EncodedString()

    /// How a finished record got sealed before the backend (now configured with `current` + `previous`) reads it.
    enum Sealing: String, CaseIterable, CustomTestStringConvertible {
        /// Sealed under key A, which the configuration no longer lists at all.
        case retiredKeyDropped
        /// Sealed under key A, now listed in BATON_SEALING_KEYS_PREVIOUS.
        case retiredKeyKept
        /// Sealed under the current key in the format written before key ids existed.
        case legacyFormat
        var testDescription: String { rawValue }
    }

    @Test(
        "a sealed replay after a sealing-key change: 201 while a configured key opens it, else 410 (never 500)",
        arguments: BackendEngines.available, Sealing.allCases)
    func sealingKeyRotation(engine: StoreEngine, sealing: Sealing) async throws {
        var environment = TestConfiguration.environment
        environment["BATON_SEALING_KEY"] = Self.keyB
        if sealing == .retiredKeyKept { environment["BATON_SEALING_KEYS_PREVIOUS"] = Self.keyA }
        let configuration = try TestConfiguration.make(environment: environment)
        let fixture = try await BackendFixture.make(engine, configuration: configuration)
        fixture.catalog.set(Share.item, TestCatalogProjection.share(version: Share.version))
        let key = Share.key()
        let plaintext = Array(#"{"expiresAt":"2025-06-15T10:15:00Z","url":"https://chia.example/h/phs_old"}"#.utf8)
        let sealed: [UInt8]
        switch sealing {
        case .retiredKeyDropped, .retiredKeyKept:
            let old = Secret(bytes: Array(Data(base64Encoded: Self.keyA)!))
            sealed = try ResponseSealer(current: old).seal(plaintext, user: "alice", key: key)
        case .legacyFormat:
            sealed = try AESGCM.seal(
                plaintext, key: configuration.sealingKey,
                associatedData: ResponseSealer.legacyBinding("alice", key))
        }
        let fingerprint = try #require(ShareRequestBody(json: Array(Share.body().utf8))).fingerprint
        let now = fixture.clock.now
        #expect(
            try await fixture.store.claim(
                user: "alice", key: key, fingerprint: fingerprint, owner: "old", leaseUntil: now.addingTimeInterval(30),
                now: now) == .claimed)
        #expect(
            try await fixture.store.complete(
                user: "alice", key: key, owner: "old", responseStatus: 201, sealedResponse: sealed,
                responseExpiresAt: now.addingTimeInterval(900), now: now))
        try await fixture.run { api in
            let replay = try await api.share(key: key)
            switch sealing {
            case .retiredKeyDropped:
                #expect(replay.status == 410)
                #expect(replay.problemCode == "handoff_expired")
            case .retiredKeyKept, .legacyFormat:
                #expect(replay.status == 201)
                #expect(replay.body == plaintext)
                #expect(replay.headers["idempotent-replayed"] == "true")
            }
        }
    }

    @Test("a response sealed now names its key and opens only with it, for its own user and key")
    func sealedResponsesNameTheirKey() throws {
        let a = Secret(bytes: Array(repeating: 0xA1, count: 32))
        let b = Secret(bytes: Array(repeating: 0xB2, count: 32))
        let key = Share.key()
        let sealed = try ResponseSealer(current: a).seal(Array("hello".utf8), user: "alice", key: key)
        #expect(Array(sealed.prefix(4)) == [0x42, 0x53, 0x4B, 0x01])
        #expect(Array(sealed[4..<12]) == ResponseSealer.keyID(a))
        #expect(ResponseSealer(current: b, previous: [a]).open(sealed, user: "alice", key: key) == Array("hello".utf8))
        #expect(ResponseSealer(current: b).open(sealed, user: "alice", key: key) == nil)
        #expect(ResponseSealer(current: a).open(sealed, user: "bob", key: key) == nil)
        #expect(ResponseSealer(current: a).open(sealed, user: "alice", key: Share.key()) == nil)
    }
    @Test("a sealing key of the wrong size fails each seal with the typed error, never a crash")
    func aSealingKeyOfTheWrongSizeThrows() {
        let sealer = ResponseSealer(current: Secret(bytes: Array(repeating: 0xC3, count: 16)))
        let error = #expect(throws: CryptoError.self) {
            try sealer.seal(Array("hello".utf8), user: "alice", key: Share.key())
        }
        #expect(error?.code == .invalidKeySize)
    }
}
