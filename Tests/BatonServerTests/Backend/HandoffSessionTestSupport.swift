import BatonCore
import BatonHTTP
import BatonTestSupport
import Foundation

@testable import BatonServer

/// Shared pieces of the `POST /v2/handoff-sessions` tests.
enum Share {
    static let item = "item-1"
    static let version = "disclosure-v3"
    static let path = "/v2/handoff-sessions"

    static func body(
        item: String = item, version: String = version, affirmedAt: String = "2025-06-15T10:00:00Z"
    )
        -> String
    {
        """
        {"catalogItemId":"\(item)","disclosureVersion":"\(version)","affirmed":true,"affirmedAt":"\(affirmedAt)"}
        """
    }

    static func key() -> String { IdempotencyKey.random().rawValue }

    /// The `Idempotency-Key` the backend sends Chia for `user`'s request with the app's `key`.
    static func upstreamKey(_ key: String, user: String = "alice", _ configuration: BackendConfiguration) -> String {
        ProviderIdempotencyKeys(secret: configuration.idempotencySecret)
            .key(for: .chiaHandoffSession, user: user, appKey: IdempotencyKey(key)!).rawValue
    }

    /// A fixture whose catalog offers `item` for sharing and whose Chia is ``FakeChia``.
    static func fixture(
        _ engine: StoreEngine, clock: ManualClock = ManualClock(),
        configure: (inout BackendOverrides) -> Void = { _ in }
    ) async throws -> (BackendFixture, FakeChia) {
        let fixture = try await BackendFixture.make(engine, clock: clock, configure: configure)
        fixture.catalog.set(item, TestCatalogProjection.share(version: version))
        let chia = FakeChia(clock: clock)
        fixture.transport.on(.post, "/v2/handoff-sessions") { chia.handle($0) }
        return (fixture, chia)
    }
}

extension BackendFixture.API {
    func share(key: String?, body: String = Share.body(), user: String = "alice") async throws -> OutboundResponse {
        var headers: HTTPHeaders = [:]
        if let key { headers.set("idempotency-key", key) }
        return try await send(.post, Share.path, user: user, headers: headers, body: body)
    }
}

extension OutboundResponse {
    /// The problem document's `code`.
    var problemCode: String? { jsonObject(self)["code"] as? String }
}
