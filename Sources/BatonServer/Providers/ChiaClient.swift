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
package struct ChiaClient: Sendable {
    let origin: String
    let apiKey: Secret
    let caller: ProviderCaller
    let urls: URLPolicy
    /// The hosts a handoff session's `url` may have (`chia.journeyHosts`).
    let journeyHosts: JourneyHostPins

    /// Creates (or, for a key Chia has seen with this body, gets back) the handoff session.
    package func createHandoffSession(
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
            outbound, provider: .chia, operation: .createHandoffSession, repeatability: .idempotent)
        let result = ProviderJSON.result(exchange) { response -> ChiaHandoff? in
            guard let (url, expiresAt) = Self.urlAndExpiry(response), let url = urls.journeyURL(url),
                let expiresAt = RFC3339.date(from: expiresAt)
            else { return nil }
            return ChiaHandoff(url: url, expiresAt: expiresAt)
        }
        let pinned = caller.pin(result, to: journeyHosts, .chia, .createHandoffSession) { $0.url }
        caller.record(.chia, .createHandoffSession, pinned)
        return pinned
    }

    /// The created session's `url` and `expiresAt` strings, read by the one strict JSON reader (``JSONValue/parse(_:)``,
    /// RFC 8259, each name once): members Chia may add, nested or not, are read and ignored; a body that is not such
    /// an object is refused.
    static func urlAndExpiry(_ response: OutboundResponse) -> (url: String, expiresAt: String)? {
        guard let body = try? JSONValue.parse(response.body), let url = body["url"]?.stringValue,
            let expiresAt = body["expiresAt"]?.stringValue
        else { return nil }
        return (url, expiresAt)
    }

    /// A client for Chia at `origin` (package-wide for the fuzzing harness, `BatonServerFuzzing`).
    package init(
        origin: String, apiKey: Secret, caller: ProviderCaller, urls: URLPolicy,
        journeyHosts: JourneyHostPins
    ) {
        self.origin = origin
        self.apiKey = apiKey
        self.caller = caller
        self.urls = urls
        self.journeyHosts = journeyHosts
    }
}
