/// An incoming request, fully read (body bounded by the server's limits) before a handler sees it.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The path exactly as sent (percent-encoding kept), without the query.
    public var path: String
    /// The raw query string after `?`, percent-encoding kept; `nil` when the target had no `?`.
    public var query: String?
    /// The request header fields.
    public var headers: HTTPHeaders
    /// The request body bytes.
    public var body: [UInt8]
    /// The server-assigned id of this request; also sent back as `x-request-id`.
    public var id: String
    /// The peer's IP address as text, when known.
    public var remoteAddress: String?
    /// The route pattern that matched (`/v2/connect-sessions/{sessionId}`), set by ``Router``; safe to log.
    public var route: String?
    /// Path parameters captured by the matching route, percent-decoded.
    public var parameters: [String: String]
    /// Values attached by middleware (an authenticated user, for instance).
    public var attributes: RequestAttributes

    /// Makes a request; servers and tests build these, handlers read them.
    public init(
        method: HTTPMethod, path: String, query: String? = nil, headers: HTTPHeaders = [:], body: [UInt8] = [],
        id: String = "", remoteAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.id = id
        self.remoteAddress = remoteAddress
        self.route = nil
        self.parameters = [:]
        self.attributes = RequestAttributes()
    }

    /// Splits a request target (`/a/b?x=1`) into a request with path and raw query.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        let utf8 = target.utf8
        if let mark = utf8.firstIndex(of: UInt8(ascii: "?")) {
            self.init(
                method: method, path: String(target[..<mark]), query: String(target[utf8.index(after: mark)...]),
                headers: headers, body: body)
        } else {
            self.init(method: method, path: target, headers: headers, body: body)
        }
    }
}

/// A key for a value middleware attaches to a request.
public protocol RequestAttributeKey {
    /// The type of the attached value.
    associatedtype Value: Sendable
}

/// Typed values attached to a request by middleware, looked up by key type.
public struct RequestAttributes: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// No attributes.
    public init() {}

    /// The value stored for `key`, or `nil`.
    public subscript<Key: RequestAttributeKey>(key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// These attributes with `value` stored for `key`: how a route declares one (``RouteBuilding``).
    public func with<Key: RequestAttributeKey>(_ key: Key.Type, _ value: Key.Value) -> RequestAttributes {
        var copy = self
        copy[key] = value
        return copy
    }

    /// Stores every value of `other`, replacing the value this holds for the same key.
    public mutating func merge(_ other: RequestAttributes) {
        if values.isEmpty {
            values = other.values
        } else if !other.values.isEmpty {
            values.merge(other.values) { _, new in new }
        }
    }
}
