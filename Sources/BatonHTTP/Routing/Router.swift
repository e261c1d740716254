/// Routes requests by method and path pattern through a middleware chain.
///
/// ```swift
/// var router = Router()
/// router.use(AccessLogMiddleware(logger: logger))
/// router.get("/healthz") { _ in .text("ok") }
/// router.group("/v2", middleware: [authentication]) { v2 in
///     v2.get("/connect-sessions/{sessionId}") { request in .text(request.parameters["sessionId"] ?? "") }
/// }
/// ```
/// Middleware added with ``use(_:)`` runs for every request; a group's middleware (``RouterGroup``) runs inside it,
/// for the group's routes only. A path no route matches is a 404; a path some route matches with another method is
/// a 405 with `Allow`. `HEAD` is answered by the `GET` route when there is no `HEAD` route. Both still run through
/// the router's middleware, and through the middleware of the deepest group whose path holds the request's path (a
/// 404 under `/v2` is still refused 401 without a token: which routes exist is not told to a stranger), with
/// ``HTTPRequest/route`` `nil`.
public struct Router: RouteBuilding, Sendable {
    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let declared: RouterGroup.DeclaredRoute
        /// The handler inside the router's and its group's middleware, composed when the route or a middleware is
        /// added rather than on every request (a closure per middleware per request, otherwise).
        var chain: HTTPResponder
    }

    private var routes: [Route] = []
    /// Routes without parameters, by their exact path: a request for one of these paths with one of their methods is
    /// answered without splitting the path or scanning the table (no pattern can be more specific than an exact one).
    private var exactRoutes: [String: [Route]] = [:]
    private var middleware: [any HTTPMiddleware] = []
    /// Groups with a path and middleware: what a 404 or 405 under their path runs through.
    private var scopes: [RouterGroup.Scope] = []

    /// An empty router: every request is a 404.
    public init() {}

    /// Adds a route outside any group. Patterns start with `/`; `{name}` captures one non-empty segment;
    /// `attributes` are in the request's ``HTTPRequest/attributes`` for the middleware around it and its handler.
    public mutating func on(
        _ method: HTTPMethod, _ pattern: String, attributes: RequestAttributes, _ handler: @escaping HTTPResponder
    ) {
        add(RouterGroup.DeclaredRoute(method: method, path: pattern, middleware: [], attributes: attributes, handler))
    }

    /// Adds the routes `body` declares on a group at `path` (empty: the router's own path) whose `middleware` runs,
    /// after the router's, for each of them, and whose `attributes` each of them declares.
    public mutating func group(
        _ path: String = "", middleware: [any HTTPMiddleware] = [], attributes: RequestAttributes = RequestAttributes(),
        _ body: (inout RouterGroup) -> Void
    ) {
        var root = RouterGroup()
        root.group(path, middleware: middleware, attributes: attributes, body)
        for route in root.routes { add(route) }
        scopes += root.scopes
    }

    private mutating func add(_ declared: RouterGroup.DeclaredRoute) {
        let route = Route(
            method: declared.method, pattern: RoutePattern(declared.path), declared: declared,
            chain: Self.chain(middleware + declared.middleware, around: declared.handler))
        routes.append(route)
        if route.pattern.isExact { exactRoutes[route.pattern.text, default: []].append(route) }
    }

    /// Every route added, as `METHOD /pattern` (`{name}` for a capture), in the order added: what a document of the
    /// API (OpenAPI) is checked against.
    public var routeDescriptions: [String] { routes.map { "\($0.method.rawValue) \($0.pattern.text)" } }

    /// Appends a middleware that runs for every request, outside every group's; the first one added is the outermost.
    public mutating func use(_ middleware: any HTTPMiddleware) {
        self.middleware.append(middleware)
        for index in routes.indices {
            let declared = routes[index].declared
            routes[index].chain = Self.chain(self.middleware + declared.middleware, around: declared.handler)
        }
        exactRoutes = [:]
        for route in routes where route.pattern.isExact { exactRoutes[route.pattern.text, default: []].append(route) }
    }

    /// What ``respond(to:)`` does with a request for `method` and `path`: the route it matches (`nil` for a 404 or
    /// 405), the middleware it runs through, outermost first, and the attributes its route declares. For tests that
    /// pin which middleware guards which route.
    public func match(_ method: HTTPMethod, _ path: String) -> RouteMatch {
        switch resolve(method, path) {
        case .found(let route, _):
            return RouteMatch(
                route: route.pattern.text, middleware: middleware + route.declared.middleware,
                attributes: route.declared.attributes)
        case .methodNotAllowed, .notFound:
            return RouteMatch(route: nil, middleware: unmatchedMiddleware(path), attributes: RequestAttributes())
        }
    }

    /// Matches `request`, then runs it through the middleware chain to its handler (or to a 404/405 error).
    ///
    /// `nonisolated(nonsending)`: it runs on its caller's executor, so a server calling it from a request's task
    /// pays no executor switch for it.
    ///
    /// A path that does not start with `/` (a target that is not origin-form: `x/v2/catalog`, `*`, an absolute URL)
    /// is refused with 400 `invalid_target` before matching or any middleware: matching drops the first segment, so
    /// such a path would match a route that a group's middleware (authentication) did not guard.
    nonisolated(nonsending) public func respond(to request: HTTPRequest) async throws -> HTTPResponse {
        guard request.path.utf8.first == UInt8(ascii: "/") else {
            throw RequestFraming.Refusal.targetNotOriginForm.error
        }
        var request = request
        let chain: HTTPResponder
        switch resolve(request.method, request.path) {
        case .found(let route, let parameters):
            request.route = route.pattern.text
            request.parameters = parameters
            request.attributes.merge(route.declared.attributes)
            chain = route.chain
        case .methodNotAllowed(let allowed):
            chain = Self.chain(unmatchedMiddleware(request.path)) { _ in
                throw HTTPError.methodNotAllowed(allowed: allowed)
            }
        case .notFound:
            chain = Self.chain(unmatchedMiddleware(request.path)) { _ in throw HTTPError.notFound }
        }
        return try await chain(request)
    }

    /// The router's middleware, then that of the deepest group whose path holds `path`.
    private func unmatchedMiddleware(_ path: String) -> [any HTTPMiddleware] {
        var deepest: RouterGroup.Scope?
        for scope in scopes where scope.holds(path) && scope.path.utf8.count > deepest?.path.utf8.count ?? -1 {
            deepest = scope
        }
        guard let deepest else { return middleware }
        return middleware + deepest.middleware
    }

    /// `endpoint` wrapped in `middleware`, the first one outermost.
    private static func chain(
        _ middleware: [any HTTPMiddleware], around endpoint: @escaping HTTPResponder
    ) -> HTTPResponder {
        var next = endpoint
        for step in middleware.reversed() {
            let inner = next
            next = { try await step.handle($0, next: inner) }
        }
        return next
    }

    private enum Resolution {
        case found(Route, [String: String])
        case methodNotAllowed([HTTPMethod])
        case notFound
    }

    private func resolve(_ method: HTTPMethod, _ path: String) -> Resolution {
        // The first exact route added wins a tie, as in the scan below.
        if let exact = exactRoutes[path]?.first(where: { $0.method == method }) { return .found(exact, [:]) }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let pathSegments = Array(segments)
        var best: (route: Route, parameters: [String: String])?
        var fallback: (route: Route, parameters: [String: String])?
        var allowed: [HTTPMethod] = []
        for route in routes {
            guard let parameters = route.pattern.match(pathSegments) else { continue }
            if !allowed.contains(route.method) { allowed.append(route.method) }
            if route.method == method {
                if route.pattern.specificity > best?.route.pattern.specificity ?? Int.min {
                    best = (route, parameters)
                }
            } else if method == .head && route.method == .get {
                if route.pattern.specificity > fallback?.route.pattern.specificity ?? Int.min {
                    fallback = (route, parameters)
                }
            }
        }
        if let found = best ?? fallback { return .found(found.route, found.parameters) }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        return .methodNotAllowed(allowed)
    }
}

/// What a router does with a request (``Router/match(_:_:)``): the route, the middleware, the declared attributes.
public struct RouteMatch: Sendable {
    /// The pattern of the route matched; `nil` when the answer is a 404 or 405.
    public let route: String?
    /// The middleware the request runs through, outermost first.
    public let middleware: [any HTTPMiddleware]
    /// What the matched route declares (``RouteBuilding/on(_:_:attributes:_:)``); empty for a 404 or 405.
    public let attributes: RequestAttributes
}
