/// Routes under one path that share middleware and declared attributes: the `/v2` API behind authentication, a
/// provider-backed resource behind a rate limit.
///
/// A group exists while ``Router/group(_:middleware:attributes:_:)`` (or ``group(_:middleware:attributes:_:)``, for
/// a group inside this one) runs its body; the routes the body adds are added to the router when it returns, each
/// wrapped in the middleware of its group and of every group around it (outermost first, inside the router's own).
///
/// ```swift
/// router.group("/v2", middleware: [authentication]) { v2 in
///     v2.group("/connect-sessions", middleware: [rateLimit]) { sessions in
///         sessions.post("") { request in try await connect.create(request) }      // POST /v2/connect-sessions
///         sessions.get("/{sessionId}") { request in try await connect.read(request) }
///     }
/// }
/// ```
///
/// A request under a group's path that matches none of its routes (a 404 or 405) still runs through the group's
/// middleware, as if the group were a route that refuses it.
public struct RouterGroup: RouteBuilding {
    /// A route as a group declares it: its full path, and the middleware of its groups, outermost first.
    struct DeclaredRoute: Sendable {
        let method: HTTPMethod
        let path: String
        let middleware: [any HTTPMiddleware]
        let attributes: RequestAttributes
        let handler: HTTPResponder

        init(
            method: HTTPMethod, path: String, middleware: [any HTTPMiddleware], attributes: RequestAttributes,
            _ handler: @escaping HTTPResponder
        ) {
            self.method = method
            self.path = path
            self.middleware = middleware
            self.attributes = attributes
            self.handler = handler
        }
    }

    /// A group's path and its middleware (with that of the groups around it): what a 404 or 405 under it runs
    /// through.
    struct Scope: Sendable {
        let path: String
        let middleware: [any HTTPMiddleware]

        /// Whether `requestPath` is the group's path or below it (`/v2/x` is below `/v2`; `/v2x` is not).
        func holds(_ requestPath: String) -> Bool {
            requestPath.hasPrefix(path)
                && (requestPath.utf8.count == path.utf8.count
                    || requestPath.utf8.dropFirst(path.utf8.count).first == UInt8(ascii: "/"))
        }
    }

    private let path: String
    private let middleware: [any HTTPMiddleware]
    private let attributes: RequestAttributes
    private(set) var routes: [DeclaredRoute] = []
    private(set) var scopes: [Scope] = []

    /// The empty group a router starts its groups from: no path, no middleware.
    init() {
        self.path = ""
        self.middleware = []
        self.attributes = RequestAttributes()
    }

    private init(path: String, middleware: [any HTTPMiddleware], attributes: RequestAttributes) {
        self.path = path
        self.middleware = middleware
        self.attributes = attributes
    }

    /// Adds a route at the group's path followed by `pattern` (`""`: the group's path itself, else it starts with
    /// `/`), declaring the group's attributes and `attributes` (which win where both declare a key).
    public mutating func on(
        _ method: HTTPMethod, _ pattern: String, attributes: RequestAttributes, _ handler: @escaping HTTPResponder
    ) {
        precondition(pattern.isEmpty || pattern.hasPrefix("/"), "a group's route patterns start with /: \(pattern)")
        var declared = self.attributes
        declared.merge(attributes)
        routes.append(
            DeclaredRoute(method: method, path: path + pattern, middleware: middleware, attributes: declared, handler))
    }

    /// Adds the routes `body` declares on a group inside this one, at this group's path followed by `path`, whose
    /// `middleware` runs inside this group's.
    public mutating func group(
        _ path: String = "", middleware: [any HTTPMiddleware] = [], attributes: RequestAttributes = RequestAttributes(),
        _ body: (inout RouterGroup) -> Void
    ) {
        precondition(
            path.isEmpty || (path.hasPrefix("/") && !path.hasSuffix("/") && !path.contains("{")),
            "a group's path is empty or literal segments starting with /: \(path)")
        var merged = self.attributes
        merged.merge(attributes)
        var inner = RouterGroup(path: self.path + path, middleware: self.middleware + middleware, attributes: merged)
        if !inner.path.isEmpty && !inner.middleware.isEmpty {
            inner.scopes.append(Scope(path: inner.path, middleware: inner.middleware))
        }
        body(&inner)
        routes += inner.routes
        scopes += inner.scopes
    }
}

/// What a ``Router`` and a ``RouterGroup`` both do: add routes, and groups of routes.
public protocol RouteBuilding {
    /// Adds a route for `method` at `pattern` that declares `attributes`.
    mutating func on(
        _ method: HTTPMethod, _ pattern: String, attributes: RequestAttributes, _ handler: @escaping HTTPResponder)

    /// Adds the routes `body` declares on a group at `path` with its own `middleware` and `attributes`.
    mutating func group(
        _ path: String, middleware: [any HTTPMiddleware], attributes: RequestAttributes,
        _ body: (inout RouterGroup) -> Void)
}

extension RouteBuilding {
    /// Adds a route for `method` at `pattern` that declares nothing.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPResponder) {
        on(method, pattern, attributes: RequestAttributes(), handler)
    }

    /// Adds a `GET` route.
    public mutating func get(
        _ pattern: String, attributes: RequestAttributes = RequestAttributes(), _ handler: @escaping HTTPResponder
    ) { on(.get, pattern, attributes: attributes, handler) }

    /// Adds a `POST` route.
    public mutating func post(
        _ pattern: String, attributes: RequestAttributes = RequestAttributes(), _ handler: @escaping HTTPResponder
    ) { on(.post, pattern, attributes: attributes, handler) }

    /// Adds a `PUT` route.
    public mutating func put(
        _ pattern: String, attributes: RequestAttributes = RequestAttributes(), _ handler: @escaping HTTPResponder
    ) { on(.put, pattern, attributes: attributes, handler) }

    /// Adds a `PATCH` route.
    public mutating func patch(
        _ pattern: String, attributes: RequestAttributes = RequestAttributes(), _ handler: @escaping HTTPResponder
    ) { on(.patch, pattern, attributes: attributes, handler) }

    /// Adds a `DELETE` route.
    public mutating func delete(
        _ pattern: String, attributes: RequestAttributes = RequestAttributes(), _ handler: @escaping HTTPResponder
    ) { on(.delete, pattern, attributes: attributes, handler) }
}
