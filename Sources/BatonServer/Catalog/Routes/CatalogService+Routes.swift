import BatonCore
import BatonHTTP
import Foundation

/// The body of `GET /v2/catalog`: `{"items": [CatalogCard…]}`, hidden items absent.
public struct CatalogResponseBody: Sendable, Hashable, Codable {
    /// The user's cards, in catalog order.
    public var items: [CatalogCard]

    /// Creates a body.
    public init(items: [CatalogCard]) { self.items = items }
}

extension CatalogService {
    /// `GET /v2/catalog`: the authenticated user's cards (`{"items": […]}`), `Cache-Control: no-store`; `503
    /// catalog_unavailable` with `Retry-After` until this instance has loaded a publication (an empty list would
    /// tell the app "nothing to offer" when the truth is "not known yet").
    ///
    /// Mount in a group behind ``AuthenticationMiddleware``: `v2.get("/catalog", service.catalogResponse)`.
    @Sendable
    public func catalogResponse(_ request: HTTPRequest) async throws -> HTTPResponse {
        let user = try request.authenticatedUser()
        let now = now()
        guard let catalog = cache.catalog else { throw Self.catalogUnavailable }
        var body = Array(#"{"items":[]}"#.utf8)
        if !catalog.publication.isExpired(at: now) {
            let evidence = await evidence(for: user, now: now)
            body = catalog.projection.responseBody(
                publication: catalog.publication, evidence: evidence, now: now, policy: policy)
        }
        return HTTPResponse(
            status: 200, headers: ["content-type": "application/json", "cache-control": "no-store"], body: body)
    }

    /// `GET /assets/{file}`: a mirrored image at its neutral name `<sha256>.<ext>`, with long-lived immutable
    /// caching, the content type its magic bytes prove, and `nosniff`. Unknown names are `404`.
    ///
    /// Mount without authentication: `router.get("/assets/{file}", service.assetResponse)`.
    @Sendable
    public func assetResponse(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let file = request.parameters["file"], let (sha256, format) = Self.parseAssetName(file) else {
            throw HTTPError.notFound
        }
        let etag = "\"\(sha256)\""
        var headers: HTTPHeaders = [
            "cache-control": "public, max-age=31536000, immutable",
            "etag": etag,
            "x-content-type-options": "nosniff",
            "content-security-policy": "default-src 'none'; sandbox",
        ]
        var bytes = assetBytes.bytes(sha256: sha256)
        if bytes == nil {
            bytes = try await store.assetBytes(sha256: sha256)
            if let bytes { assetBytes.insert(bytes, sha256: sha256) }
        }
        // The name must agree with what the stored bytes are.
        guard let bytes, ImageFormat(sniffing: bytes) == format else { throw HTTPError.notFound }
        if let match = request.headers["if-none-match"],
            match.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == etag
            })
        {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers.set("content-type", format.contentType)
        return HTTPResponse(status: 200, headers: headers, body: bytes)
    }

    /// Splits `<64 lowercase hex>.<png|jpg|webp>`; `nil` for anything else.
    static func parseAssetName(_ file: String) -> (sha256: String, format: ImageFormat)? {
        let parts = file.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 64,
            parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            let format = ImageFormat(fileExtension: String(parts[1]))
        else { return nil }
        return (String(parts[0]), format)
    }
}
