import BatonCore
import BatonHTTP
import Foundation

/// Privue over HTTP: verifications, handoffs, the hosted journey and its redirect (CONTRACTS §4.2).
struct PrivueSimulator: ProviderSimulator {
    let state: PrivueState
    let apiKey: Secret
    let account: String
    let webhookDispatcher: WebhookDispatcher

    static let cookieName = "privue_session"

    var name: String { "privue" }
    var sensitiveRoutes: Set<String> { [] }
    var webhooks: WebhookDispatcher? { webhookDispatcher }

    func addRoutes(to router: inout Router) {
        let state = state
        router.post(
            "/verifications",
            authenticated { request in
                guard
                    let body = StrictJSONObject(request.body, allowedKeys: ["user_ref", "workflow", "return_url"]),
                    let userRef = body.anyString("user_ref"), let workflow = body.anyString("workflow"),
                    case .some(let returnURL) = body.optionalString("return_url"),
                    (1...200).contains(userRef.count), Self.isSlug(workflow)
                else {
                    throw HTTPError.badRequest(
                        code: "validation_error",
                        detail: "Body must be {user_ref, workflow (a slug), return_url?} and nothing else.")
                }
                do {
                    let result = try await state.createVerification(
                        userRef: userRef, workflow: workflow, returnURL: returnURL)
                    return .sandboxJSON(
                        await state.body(of: result.verification).json, status: result.created ? 201 : 200)
                } catch {
                    throw HTTPError.badRequest(
                        code: "return_url_not_registered", detail: "return_url must be a registered https return URL.")
                }
            })
        router.get(
            "/verifications/{id}",
            authenticated { request in
                guard let verification = await state.verification(request.parameters["id"] ?? "") else {
                    throw HTTPError(status: 404, code: "verification_not_found")
                }
                return .sandboxJSON(await state.body(of: verification).json)
            })
        router.post(
            "/verifications/{id}/handoff",
            authenticated { request in
                guard let handoff = await state.createHandoff(verificationID: request.parameters["id"] ?? "") else {
                    throw HTTPError(status: 404, code: "verification_not_found")
                }
                return .sandboxJSON(
                    [
                        "url": .string(handoff.url.revealForPresentation()),
                        "expires_in_seconds": .integer(handoff.expiresInSeconds),
                    ] as JSONValue, status: 201, headers: ["cache-control": "no-store"])
            })
        PrivueJourneyRoutes(state: state, account: account).add(to: &router)
    }

    func errorResponse(status: Int, code: String, message: String) -> HTTPResponse {
        HTTPError(status: status, code: code, detail: message).response()
    }

    func stateJSON() async -> JSONValue {
        let verifications = await state.allVerifications().map { verification -> JSONValue in
            [
                "id": .string(verification.id), "userRef": .string(verification.userRef),
                "workflow": .string(verification.workflow), "status": .string(verification.status.rawValue),
                "returnUrl": .string(verification.returnURL), "createdAt": .date(verification.createdAt),
                "updatedAt": .date(verification.updatedAt),
                "handoffs": .array(
                    verification.handoffs.map { handoff in
                        [
                            "createdAt": .date(handoff.createdAt), "expiresAt": .date(handoff.expiresAt),
                            "redeemedAt": .date(handoff.redeemedAt),
                        ]
                    }),
            ]
        }
        return ["verifications": .array(verifications)]
    }

    func completeJourney(id: String, body: [UInt8]) async -> HTTPResponse {
        guard let outcome = StrictJSONObject(body, allowedKeys: ["status"]),
            let status = outcome.anyString("status").flatMap(PrivueVerification.Status.init(rawValue:)),
            status.isSubmitted
        else {
            return errorResponse(
                status: 400, code: "invalid_outcome", message: "Body must be {status: approved|rejected|needs_review}.")
        }
        guard let redirect = await state.complete(verificationID: id, status: status) else {
            return errorResponse(status: 404, code: "verification_not_found", message: "No such verification.")
        }
        return .sandboxJSON(
            [
                "redirectUrl": .string(redirect), "verificationId": .string(id),
                "status": .string(status.rawValue),
            ]
                as JSONValue)
    }

    func useOrigin(_ origin: WebOrigin) async { await state.useOrigin(origin) }

    func reset() async { await state.reset() }

    static func isSlug(_ text: String) -> Bool {
        (1...64).contains(text.count)
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    private func authenticated(_ handler: @escaping HTTPResponder) -> HTTPResponder {
        let key = apiKey
        return { request in
            guard let token = request.bearerToken, Secret(token) == key else {
                throw HTTPError.unauthorized(detail: "A valid Privue API key is required.")
            }
            return try await handler(request)
        }
    }
}
