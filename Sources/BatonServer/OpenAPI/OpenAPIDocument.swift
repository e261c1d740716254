import BatonHTTP

/// The OpenAPI 3.1 document describing every route of the partner backend: the app-facing `/v2/*` API with its
/// schemas and problem codes, the webhook receivers, the well-known files and the operations routes.
///
/// The document is the checked-in file `OpenAPI/openapi.json` of this target, embedded into the binary at build time
/// (``json``), so serving it needs no resource bundle and the bytes served are the bytes reviewed. ``BatonBackend`` mounts it at `GET /openapi.json`; another router can too:
///
/// ```swift
/// var router = Router()
/// OpenAPIDocument.register(on: &router)     // GET /openapi.json, application/json
/// ```
public enum OpenAPIDocument {
    /// The document's JSON text, exactly as `GET /openapi.json` serves it.
    public static let json = EmbeddedFiles.openapiJSON

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
