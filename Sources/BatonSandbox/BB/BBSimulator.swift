import BatonCore
import BatonHTTP

/// BB over HTTP: connect sessions, the hosted connect flow and its redirect (CONTRACTS §4.3). BB's errors are
/// `{"error":"<code>","message":"…"}`.
struct BBSimulator: ProviderSimulator {
    let state: BBState
    let apiKey: Secret
    let clientID: Secret
    let webhookDispatcher: WebhookDispatcher

    var name: String { "bb" }
    var sensitiveRoutes: Set<String> { [] }
    var webhooks: WebhookDispatcher? { webhookDispatcher }

    func addRoutes(to router: inout Router) {
        let state = state
        router.post(
            "/v2/connect-sessions",
            authenticated { request in
                guard let body = StrictJSONObject(request.body, allowedKeys: ["returnUrl"]),
                    let returnURL = body.anyString("returnUrl"),
                    let session = await state.createSession(returnURL: returnURL)
                else {
                    return Self.error(400, "validation_error", "returnUrl must match a registered return URL.")
                }
                return .sandboxJSON(
                    [
                        "sessionId": .string(session.sessionID),
                        "hostedUrl": .string(await state.hostedURL(of: session)),
                        "expiresAt": .date(session.expiresAt),
                    ] as JSONValue, status: 201, headers: ["cache-control": "no-store"])
            })
        router.get(
            "/v2/connect-sessions/{sessionId}",
            authenticated { request in
                guard let session = await state.session(request.parameters["sessionId"] ?? "") else {
                    return Self.error(404, "not_found", "No connect session with this id.")
                }
                return .sandboxJSON(BBConnectSessionBody(session).json)
            })
        router.get("/connect/{sessionId}") { request in
            guard let session = await state.session(request.parameters["sessionId"] ?? "") else {
                return BBPages.message("This link is not valid.", status: 404)
            }
            switch session.status {
            case .pending: return BBPages.connect(session)
            case .expired: return BBPages.message("This link has expired. Start again from the app.", status: 410)
            case .completed: return BBPages.message("This bank connection flow has already finished.", status: 409)
            }
        }
        router.post("/connect/{sessionId}/complete") { request in
            let form = request.form
            guard let code = form.first("resultCode").flatMap(BBConnectSession.ResultCode.init(rawValue:)) else {
                return BBPages.message("Choose Ok, Error or Cancelled.", status: 400)
            }
            do throws(BBState.CompletionError) {
                let result = try await state.complete(
                    sessionID: request.parameters["sessionId"] ?? "", resultCode: code, error: form.first("error"))
                return HTMLPage.seeOther(result.redirect)
            } catch {
                return BBPages.completionFailure(error)
            }
        }
    }

    func errorResponse(status: Int, code: String, message: String) -> HTTPResponse {
        Self.error(status, code, message)
    }

    static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        .sandboxJSON(["error": .string(code), "message": .string(message)] as JSONValue, status: status)
    }

    func stateJSON() async -> JSONValue {
        let sessions = await state.allSessions().map { session -> JSONValue in
            [
                "sessionId": .string(session.sessionID), "status": .string(session.status.rawValue),
                "resultCode": .optional(session.resultCode?.rawValue), "connectionId": .optional(session.connectionID),
                "error": .optional(session.error), "returnUrl": .string(session.returnURL),
                "createdAt": .date(session.createdAt), "expiresAt": .date(session.expiresAt),
                "updatedAt": .date(session.updatedAt),
            ]
        }
        return ["connectSessions": .array(sessions)]
    }

    func completeJourney(id: String, body: [UInt8]) async -> HTTPResponse {
        guard let outcome = StrictJSONObject(body, allowedKeys: ["resultCode", "error"]),
            let resultCode = outcome.anyString("resultCode").flatMap(BBConnectSession.ResultCode.init(rawValue:)),
            case .some(let error) = outcome.optionalString("error")
        else {
            return Self.error(400, "validation_error", "Body must be {resultCode: Ok|Error|Cancelled, error?}.")
        }
        do throws(BBState.CompletionError) {
            let result = try await state.complete(sessionID: id, resultCode: resultCode, error: error)
            return .sandboxJSON(
                [
                    "redirectUrl": .string(result.redirect), "sessionId": .string(id),
                    "resultCode": .string(resultCode.rawValue),
                    "connectionId": .optional(result.session.connectionID), "error": .optional(result.session.error),
                ] as JSONValue)
        } catch {
            switch error {
            case .notFound: return Self.error(404, "not_found", "No connect session with this id.")
            case .expired: return Self.error(410, "session_expired", "The connect session expired.")
            case .alreadyCompleted:
                return Self.error(409, "session_completed", "The connect session has already finished.")
            }
        }
    }

    func useOrigin(_ origin: WebOrigin) async { await state.useOrigin(origin) }

    func reset() async { await state.reset() }

    private func authenticated(_ handler: @escaping HTTPResponder) -> HTTPResponder {
        let key = apiKey
        let client = clientID
        return { request in
            guard let givenKey = request.headers["x-api-key"], let givenClient = request.headers["x-client-id"],
                Secret(givenKey) == key, Secret(givenClient) == client
            else { return Self.error(401, "unauthorized", "Valid X-Api-Key and X-Client-Id headers are required.") }
            return try await handler(request)
        }
    }
}
