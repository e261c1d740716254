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
    let now: @Sendable () -> Date

    func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        let user = try request.authenticatedUser()
        guard let body = StrictJSONObject(request.body, keys: ["callback"]), let kind = body.string("callback") else {
            throw BackendProblem.invalidRequest(
                "The body must be exactly {\"callback\": \"https\" | \"custom-scheme\"}.")
        }
        let returnURL: RegisteredReturnURL
        switch kind {
        case "https": returnURL = httpsReturnURL
        case "custom-scheme":
            guard let custom = customSchemeReturnURL else { throw BackendProblem.callbackUnavailable }
            returnURL = custom
        default:
            throw BackendProblem.invalidRequest("callback must be \"https\" or \"custom-scheme\".")
        }
        guard let parts = RawURLComponents(returnURL.string) else { throw HTTPError.internalError }
        switch try await bb.createConnectSession(returnURL: returnURL.string) {
        case .success(let session):
            let created = now()
            let record = ConnectSessionRecord(
                id: session.sessionID, user: user.id, status: "pending", createdAt: created,
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
        if session.status == "pending", case .success(let state) = try await bb.connectSession(id: session.id),
            let updated = try await store.updateConnectSession(
                id: session.id, status: state.status, connectionID: state.connectionID, error: state.error,
                updatedAt: state.updatedAt ?? now())
        {
            session = updated
        }
        return try HTTPResponse.json(
            StatusBody(
                sessionId: session.id, status: session.status, connectionId: session.connectionID,
                error: session.error))
    }

    /// `{"sessionId","hostedUrl","callback":{…}}`, written by hand so the hosted URL is revealed only here.
    static func created(_ session: BBConnectSession, callback: RawURLComponents, kind: String) -> HTTPResponse {
        var text = "{\"callback\":{"
        if kind == "https" {
            text += "\"host\":"
            JSONStringLiteral.append(callback.normalizedHost, to: &text)
            text += ",\"kind\":\"https\",\"path\":"
            JSONStringLiteral.append(String(callback.effectivePath), to: &text)
        } else {
            text += "\"kind\":\"custom-scheme\",\"scheme\":"
            JSONStringLiteral.append(callback.normalizedScheme, to: &text)
        }
        text += "},\"hostedUrl\":"
        JSONStringLiteral.append(session.hostedURL.revealForPresentation(), to: &text)
        text += ",\"sessionId\":"
        JSONStringLiteral.append(session.sessionID, to: &text)
        return HTTPResponse(
            status: 201,
            headers: ["content-type": "application/json", "cache-control": "no-store", "pragma": "no-cache"],
            body: Array((text + "}").utf8))
    }

    private struct StatusBody: Encodable {
        let sessionId: String
        let status: String
        let connectionId: String?
        let error: String?
    }
}
