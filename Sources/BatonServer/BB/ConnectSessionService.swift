import BatonCore
import BatonHTTP
import Foundation

/// BB (seed 002): `POST /v2/connect-sessions` and `GET /v2/connect-sessions/{sessionId}`.
///
/// Creation picks the registered return URL that matches what the device can catch (`https` universal link on
/// iOS 17.4+, the custom scheme below) and tells the app exactly what to catch; the hosted URL is returned once and
/// never stored. Reading a session asks BB while it is pending and otherwise answers from the store, which
/// webhooks keep current; a session belongs to its creator and is a 404 for everyone else.
struct ConnectSessionService: Sendable {
    let store: any Store
    let bb: BBClient
    let httpsReturnURL: RegisteredReturnURL
    let customSchemeReturnURL: RegisteredReturnURL?
    /// The most sessions one user may have pending before another create is refused (0: no cap).
    var maxPending = 0
    let now: @Sendable () -> Date

    func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        let user = try request.authenticatedUser()
        let kind: ConnectCallback.Kind
        switch ConnectSessionRequest.read(json: request.body) {
        case .request(let body): kind = body.callback
        case .malformed:
            throw BackendProblem.invalidRequest(
                "The body must be exactly {\"callback\": \"https\" | \"custom-scheme\"}.")
        case .unknownKind:
            throw BackendProblem.invalidRequest("callback must be \"https\" or \"custom-scheme\".")
        }
        let returnURL: RegisteredReturnURL
        switch kind {
        case .https: returnURL = httpsReturnURL
        case .customScheme:
            guard let custom = customSchemeReturnURL else { throw BackendProblem.callbackUnavailable }
            returnURL = custom
        }
        guard let parts = RawURLComponents(returnURL.string) else { throw HTTPError.internalError }
        if maxPending > 0 {
            let since = now().addingTimeInterval(-BackendConfiguration.RateLimit.pendingWindow)
            if try await store.pendingConnectSessionCount(user: user.id, since: since) >= maxPending {
                throw BackendProblem.tooManyPending
            }
        }
        switch try await bb.createConnectSession(returnURL: returnURL.string) {
        case .success(let session):
            let created = now()
            let record = ConnectSessionRecord(
                id: session.sessionID, user: user.id, status: .pending,
                createdAt: created,
                updatedAt: Date(timeIntervalSince1970: 0))
            guard try await store.createConnectSession(record) else { throw BackendProblem.providerRejected }
            return Self.created(session, callback: parts, kind: kind)
        case .rejected: throw BackendProblem.providerRejected
        case .unavailable(let failure): throw BackendProblem.providerUnavailable(failure)
        }
    }

    func read(_ request: HTTPRequest) async throws -> HTTPResponse {
        let user = try request.authenticatedUser()
        // A decoded id holding a control character (`%00`) names no session: never hand it to a store (PostgreSQL
        // refuses NUL) or to BB.
        guard let id = request.parameters["sessionId"], AuthenticatedUser.isAcceptableID(id),
            var session = try await store.connectSession(id: id, user: user.id)
        else { throw BackendProblem.notFound }
        if session.status == .pending,
            case .success(let state) = try await bb.connectSession(id: session.id),
            let updated = try await store.updateConnectSession(
                id: session.id, status: state.status, connectionID: state.connectionID, error: state.error,
                updatedAt: state.updatedAt ?? now())
        {
            session = updated
        }
        let state = ConnectSessionState(
            sessionID: session.id, status: session.status, connectionID: session.connectionID, error: session.error)
        // A status is the user's own and changes: no cache (browser, proxy or CDN) keeps or shares it.
        return HTTPResponse(
            status: 200, headers: ["content-type": "application/json", "cache-control": "no-store"],
            body: state.jsonBody)
    }

    /// `{"callback":{…},"hostedUrl","sessionId"}` with the callback the session's `returnUrl` was registered as.
    static func created(
        _ session: BBConnectSession, callback parts: RawURLComponents, kind: ConnectCallback.Kind
    ) -> HTTPResponse {
        let callback: ConnectCallback =
            switch kind {
            case .https: .https(host: parts.normalizedHost, path: String(parts.effectivePath))
            case .customScheme: .customScheme(parts.normalizedScheme)
            }
        let body = ConnectSession(sessionID: session.sessionID, hostedURL: session.hostedURL, callback: callback)
        return HTTPResponse(
            status: 201,
            headers: ["content-type": "application/json", "cache-control": "no-store", "pragma": "no-cache"],
            body: body.jsonBody)
    }
}
