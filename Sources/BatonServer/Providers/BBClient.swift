import BatonCore
import BatonHTTP
import Foundation

/// A BB connect session as created: its id and the hosted flow URL.
public struct BBConnectSession: Sendable, Hashable {
    /// BB's opaque `sessionId`.
    public let sessionID: String
    /// The hosted flow; shown only in the one response that creates it.
    public let hostedURL: SensitiveURL
}

/// What BB says about a connect session now.
public struct BBConnectSessionState: Sendable, Hashable {
    /// Baton's status.
    public let status: ConnectSessionState.Status
    /// The bank connection, when one was created.
    public let connectionID: String?
    /// BB's machine-readable failure reason, when the flow failed.
    public let error: String?
    /// When BB last changed it, if it said.
    public let updatedAt: Date?

    /// Maps BB's `status` (`pending`, `completed`, `expired`) and, once completed, its `resultCode` (`Ok`,
    /// `Error`, `Cancelled`, exact case) onto Baton's five states; `nil` for anything else.
    static func mapStatus(_ status: String, resultCode: String?) -> ConnectSessionState.Status? {
        switch (status, resultCode) {
        case ("pending", _): .pending
        case ("expired", _): .expired
        case ("completed", "Ok"): .ok
        case ("completed", "Error"): .error
        case ("completed", "Cancelled"): .cancelled
        default: nil
        }
    }
}

/// BB's API as the backend uses it (seed 002), with `X-Api-Key` and `X-Client-Id`.
package struct BBClient: Sendable {
    let origin: String
    let apiKey: Secret
    let clientID: String
    let caller: ProviderCaller
    let urls: URLPolicy
    /// The hosts a `hostedUrl` may have (`bb.journeyHosts`).
    let journeyHosts: JourneyHostPins

    /// A client for BB at `origin` (package-wide for the fuzzing harness, `BatonServerFuzzing`).
    package init(
        origin: String, apiKey: Secret, clientID: String, caller: ProviderCaller, urls: URLPolicy,
        journeyHosts: JourneyHostPins
    ) {
        self.origin = origin
        self.apiKey = apiKey
        self.clientID = clientID
        self.caller = caller
        self.urls = urls
        self.journeyHosts = journeyHosts
    }

    /// Creates a connect session returning to `returnURL`. Not retried once sent: BB does not dedupe creation.
    package func createConnectSession(returnURL: String) async throws -> ProviderResult<BBConnectSession> {
        var body = JSONText()
        body.field("returnUrl", returnURL)
        let exchange = try await caller.send(
            request(.post, "/v2/connect-sessions", body: body.finishBytes()),
            provider: .bb, operation: .createConnectSession, repeatability: .onlyIfNotSent)
        let result = ProviderJSON.result(exchange) { response -> BBConnectSession? in
            struct Body: Decodable {
                let sessionId: String
                let hostedUrl: String
            }
            guard let body = ProviderJSON.decode(Body.self, response), !body.sessionId.isEmpty,
                body.sessionId.utf8.count <= 256, let url = urls.journeyURL(body.hostedUrl)
            else { return nil }
            return BBConnectSession(sessionID: body.sessionId, hostedURL: url)
        }
        let pinned = caller.pin(result, to: journeyHosts, .bb, .createConnectSession) { $0.hostedURL }
        caller.record(.bb, .createConnectSession, pinned)
        return pinned
    }

    /// The authoritative state of session `id`.
    package func connectSession(id: String) async throws -> ProviderResult<BBConnectSessionState> {
        let exchange = try await caller.send(
            request(.get, "/v2/connect-sessions/\(PrivueClient.segment(id))", body: []), provider: .bb,
            operation: .getConnectSession, repeatability: .idempotent)
        let result = ProviderJSON.result(exchange) { Self.state(ProviderJSON.decode(StateBody.self, $0)) }
        caller.record(.bb, .getConnectSession, result)
        return result
    }

    /// The session fields BB sends in `GET /v2/connect-sessions/{id}` and in `connect_session.updated`.
    struct StateBody: Decodable {
        let sessionId: String?
        let status: String?
        let resultCode: String?
        let connectionId: String?
        let error: String?
        let updatedAt: String?
    }

    static func state(_ body: StateBody?) -> BBConnectSessionState? {
        guard let body, let literal = body.status,
            let status = BBConnectSessionState.mapStatus(literal, resultCode: body.resultCode)
        else { return nil }
        return BBConnectSessionState(
            status: status, connectionID: body.connectionId.flatMap { $0.isEmpty ? nil : $0 },
            error: body.error.flatMap { $0.isEmpty ? nil : $0 }, updatedAt: body.updatedAt.flatMap(RFC3339.date(from:)))
    }

    private func request(_ method: HTTPMethod, _ path: String, body: [UInt8]) -> OutboundRequest {
        var headers: HTTPHeaders = [
            "x-api-key": apiKey.revealForUse(), "x-client-id": clientID, "accept": "application/json",
        ]
        if method == .post { headers.add("content-type", "application/json") }
        return OutboundRequest(method: method, url: origin + path, headers: headers, body: body)
    }
}
