import BatonHTTP
import Foundation

/// The response headers every `/web/` response carries (`Conformance/renderer-conformance.v1.json` `headers`).
struct WebShellHeaders: Sendable {
    /// The Content-Security-Policy: only this origin, no inline script or style, no frames, no plugins.
    let contentSecurityPolicy: String

    init(imageOrigins: [String]) {
        let images = (["'self'"] + imageOrigins.filter { Self.isOrigin($0) }).joined(separator: " ")
        contentSecurityPolicy = [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src \(images)",
            "connect-src 'self'", "font-src 'self'", "object-src 'none'", "frame-src 'none'", "worker-src 'none'",
            "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// Adds the security headers and `cacheControl` to `response`.
    func apply(to response: inout HTTPResponse, cacheControl: String) {
        response.headers.set("content-security-policy", contentSecurityPolicy)
        response.headers.set("x-content-type-options", "nosniff")
        response.headers.set("referrer-policy", "no-referrer")
        response.headers.set("x-frame-options", "DENY")
        response.headers.set("cross-origin-opener-policy", "same-origin")
        response.headers.set("cache-control", cacheControl)
    }

    /// Serves `asset`, answering `304` when the request already holds its `ETag`.
    func respond(with asset: WebShell.Asset, to request: HTTPRequest) -> HTTPResponse {
        var response: HTTPResponse
        let known = request.headers["if-none-match"]?.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if asset.cacheControl != "no-store", let known, known.contains(asset.etag) || known.contains("*") {
            response = HTTPResponse(status: 304)
        } else {
            response = HTTPResponse(status: 200, headers: ["content-type": asset.contentType], body: asset.body)
        }
        if asset.cacheControl != "no-store" { response.headers.set("etag", asset.etag) }
        apply(to: &response, cacheControl: asset.cacheControl)
        return response
    }

    /// `https://host[:port]` or `http://host[:port]`, nothing else: a path, quote or space would break the policy.
    private static func isOrigin(_ text: String) -> Bool {
        guard let schemeEnd = text.range(of: "://") else { return false }
        let scheme = text[..<schemeEnd.lowerBound]
        let authority = text[schemeEnd.upperBound...]
        return (scheme == "https" || scheme == "http") && !authority.isEmpty
            && authority.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) }
    }
}
