import BatonHTTP

/// The OpenAPI 3.1 document describing every route of the partner backend: the app-facing `/v2/*` API with its
/// schemas and problem codes, the webhook receivers, the well-known files and the operations routes.
///
/// The document is a checked-in constant (``json``), so serving it needs no resource bundle or build step, and the
/// bytes served are the bytes reviewed. ``BatonBackend`` mounts it at `GET /openapi.json`; another router can too:
///
/// ```swift
/// var router = Router()
/// OpenAPIDocument.register(on: &router)     // GET /openapi.json, application/json
/// ```
public enum OpenAPIDocument {
    /// The path the document is served at.
    public static let path = "/openapi.json"

    /// The `GET /openapi.json` answer: the document as `application/json`.
    public static func response() -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: ["content-type": "application/json", "cache-control": "no-cache"],
            body: Array(json.utf8))
    }

    /// Adds `GET /openapi.json` to `router`.
    public static func register(on router: inout Router) {
        router.get(path) { _ in response() }
    }
}
