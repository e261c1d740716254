import BatonCore
import BatonCrypto
import BatonHTTP

/// Chia over HTTP: the catalog, authenticated assets, handoff sessions and the hosted pages (CONTRACTS §4.1).
struct ChiaSimulator: ProviderSimulator {
    let state: ChiaState
    let apiKey: Secret
    let genericReturnURL: String?

    var name: String { "chia" }
    var sensitiveRoutes: Set<String> { ["/h/{phs}"] }
    var webhooks: WebhookDispatcher? { nil }

    func addRoutes(to router: inout Router) {
        let state = state
        router.get(
            "/v2/catalog",
            authenticated { request in
                guard let catalog = try? await state.currentCatalog() else {
                    return HTTPError(status: 500, code: "internal_error", detail: "the catalog could not be encoded")
                        .response()
                }
                let headers: HTTPHeaders = ["etag": catalog.etag, "cache-control": "no-cache"]
                if let condition = request.headers["if-none-match"], Self.matches(condition, etag: catalog.etag) {
                    return HTTPResponse(status: 304, headers: headers)
                }
                var response = HTTPResponse(status: 200, headers: headers, body: catalog.body)
                response.headers.set("content-type", "application/json")
                return response
            })
        router.get(
            "/v2/assets/{id}",
            authenticated { request in
                guard let asset = await state.asset(request.parameters["id"] ?? "") else {
                    throw HTTPError(status: 404, code: "asset_not_found", detail: "No asset with this id.")
                }
                return HTTPResponse(
                    status: 200,
                    headers: [
                        "content-type": asset.contentType, "etag": "\"\(SHA256.hexDigest(asset.bytes))\"",
                        "cache-control": "private, max-age=3600",
                    ], body: asset.bytes)
            })
        router.post(
            "/v2/handoff-sessions",
            authenticated { request in
                guard let header = request.headers["idempotency-key"], let key = IdempotencyKey(header) else {
                    throw HTTPError.badRequest(
                        code: "idempotency_key_invalid", detail: "Idempotency-Key must be a canonical UUIDv4.")
                }
                guard let body = ChiaHandoffRequest(json: request.body) else {
                    throw HTTPError.badRequest(
                        code: "invalid_request",
                        detail: "Body must be exactly {catalogItemId, disclosureVersion, affirmed: true, affirmedAt}.")
                }
                return Self.response(for: await state.createHandoffSession(key: key, request: body))
            })
        let pages = ChiaPages(genericReturnURL: genericReturnURL)
        router.get("/h/{phs}") { request in
            guard let journey = await state.openJourney(token: request.parameters["phs"] ?? "") else {
                return pages.generic()
            }
            return pages.coBranded(item: journey.item)
        }
        router.get("/c/{slug}") { request in
            guard let item = await state.neutralItem(slug: request.parameters["slug"] ?? "") else {
                return pages.generic(status: 404)
            }
            return pages.neutral(item: item)
        }
        router.get("/") { _ in pages.generic() }
    }

    func errorResponse(status: Int, code: String, message: String) -> HTTPResponse {
        HTTPError(status: status, code: code, detail: message).response()
    }

    func stateJSON() async -> JSONValue {
        let catalog = try? await state.currentCatalog()
        let now = await state.now
        let sessions = await state.sessions().map { session -> JSONValue in
            [
                "id": .string(session.id), "idempotencyKey": .string(session.idempotencyKey.rawValue),
                "catalogItemId": .string(session.request.catalogItemID),
                "disclosureVersion": .string(session.request.disclosureVersion),
                "createdAt": .date(session.createdAt), "expiresAt": .date(session.expiresAt),
                "expired": .bool(session.isExpired(at: now)), "opens": .integer(session.opens),
            ]
        }
        return [
            "publication": catalog.map { catalog in
                [
                    "id": .string(catalog.publication.id), "publishedAt": .date(catalog.publication.publishedAt),
                    "expiresAt": .date(catalog.publication.expiresAt), "etag": .string(catalog.etag),
                    "items": .integer(catalog.publication.items.count),
                ]
            } ?? .null,
            "handoffSessions": .array(sessions),
        ]
    }

    func completeJourney(id: String, body: [UInt8]) async -> HTTPResponse {
        errorResponse(
            status: 409, code: "no_outcome",
            message: "A Chia journey has no outcome to drive: there is no status API and no callback.")
    }

    func useOrigin(_ origin: WebOrigin) async { await state.useOrigin(origin) }

    func reset() async { await state.reset() }

    /// Wraps `handler` so it runs only for `Authorization: Bearer <Chia key>`; anything else is 401.
    private func authenticated(_ handler: @escaping HTTPResponder) -> HTTPResponder {
        let key = apiKey
        return { request in
            guard let token = request.bearerToken, Secret(token) == key else {
                throw HTTPError.unauthorized(detail: "A valid Chia API key is required.")
            }
            return try await handler(request)
        }
    }

    /// Whether an `If-None-Match` value names `etag` (a list, weak forms and `*` included).
    static func matches(_ condition: String, etag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }

    static func response(for outcome: ChiaHandoffOutcome) -> HTTPResponse {
        switch outcome {
        case .created(let session, let url), .replayed(let session, let url):
            var headers: HTTPHeaders = ["cache-control": "no-store"]
            if case .replayed = outcome { headers.set("idempotent-replayed", "true") }
            return .sandboxJSON(
                ["url": .string(url.revealForPresentation()), "expiresAt": .date(session.expiresAt)] as JSONValue,
                status: 201, headers: headers)
        case .expired:
            return HTTPError(status: 410, code: "handoff_session_expired", detail: "The session for this key expired.")
                .response()
        case .keyReused:
            return HTTPError(
                status: 422, code: "idempotency_key_reused", detail: "This key was used with a different body."
            ).response()
        case .itemNotFound:
            return HTTPError(status: 404, code: "catalog_item_not_found").response()
        case .sharingNotAllowed:
            return HTTPError(status: 409, code: "sharing_not_allowed").response()
        case .disclosureVersionMismatch:
            return HTTPError(status: 409, code: "disclosure_version_mismatch").response()
        }
    }
}
