import BatonCore
import BatonHTTP
import Foundation

/// A Chia handoff session as created: the `phs_…` journey URL and when it stops opening the journey.
public struct ChiaHandoff: Sendable, Hashable {
    /// The journey URL; shown only in the one response that creates it.
    public let url: SensitiveURL
    /// When the URL expires (15 minutes after creation, seed 000).
    public let expiresAt: Date
}

/// Chia's API as the backend uses it: `POST /v2/handoff-sessions` with the API key and the `Idempotency-Key` derived
/// per user from the app's (``ProviderIdempotencyKeys``), so Chia dedupes every retry and every lease takeover of
/// one user's request, and never hands one user's journey to another.
struct ChiaClient: Sendable {
    let origin: String
    let apiKey: Secret
    let caller: ProviderCaller
    let urls: URLPolicy
    /// The hosts a handoff session's `url` may have (`chia.journeyHosts`).
    let journeyHosts: JourneyHostPins

    /// Creates (or, for a key Chia has seen with this body, gets back) the handoff session.
    func createHandoffSession(
        key: IdempotencyKey, request: ShareRequestBody
    ) async throws -> ProviderResult<
        ChiaHandoff
    > {
        let outbound = OutboundRequest(
            method: .post, url: origin + "/v2/handoff-sessions",
            headers: [
                "authorization": "Bearer " + apiKey.revealForUse(), "idempotency-key": key.rawValue,
                "content-type": "application/json", "accept": "application/json",
            ],
            body: request.forwardedBody)
        let exchange = try await caller.send(
            outbound, provider: .chia, operation: "create_handoff_session", repeatability: .idempotent)
        let result = ProviderJSON.result(exchange) { response -> ChiaHandoff? in
            guard let (url, expiresAt) = Self.urlAndExpiry(response), let url = urls.journeyURL(url),
                let expiresAt = RFC3339.date(from: expiresAt)
            else { return nil }
            return ChiaHandoff(url: url, expiresAt: expiresAt)
        }
        let pinned = caller.pin(result, to: journeyHosts, .chia, "create_handoff_session") { $0.url }
        caller.record(.chia, "create_handoff_session", pinned)
        return pinned
    }

    /// The created session's `url` and `expiresAt` strings. Chia answers with a flat object, read by the byte-level
    /// reader; anything else (nested members, duplicate names) goes to `JSONDecoder`, which decided alone before.
    static func urlAndExpiry(_ response: OutboundResponse) -> (url: String, expiresAt: String)? {
        if let object = StrictJSONObject(anyNames: response.body) {
            guard let url = object.anyString("url"), let expiresAt = object.anyString("expiresAt") else { return nil }
            return (url, expiresAt)
        }
        struct Body: Decodable {
            let url: String
            let expiresAt: String
        }
        return ProviderJSON.decode(Body.self, response).map { ($0.url, $0.expiresAt) }
    }
}
