import BatonCore
import Foundation

/// A response a handler returns: status, headers and a body held in memory.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The response header fields (the server adds `content-length` and `x-request-id`).
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]

    /// Makes a response.
    public init(status: Int = 200, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["content-type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// An `application/json` response with `value` encoded by `encoder` (sorted keys by default).
    public static func json<Value: Encodable>(
        _ value: Value, status: Int = 200, encoder: JSONEncoder = HTTPResponse.defaultEncoder
    ) throws -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["content-type": "application/json"], body: Array(try encoder.encode(value)))
    }

    /// The encoder ``json(_:status:encoder:)`` uses unless told otherwise: Baton's one `JSONEncoder` set-up,
    /// `RFC3339.jsonEncoder()` (sorted keys, slashes unescaped, dates as RFC 3339).
    public static var defaultEncoder: JSONEncoder { RFC3339.jsonEncoder() }

    /// The body decoded as UTF-8, for tests and diagnostics.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
