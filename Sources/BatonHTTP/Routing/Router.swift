/// Routes requests by method and path pattern through a middleware chain.
///
/// ```swift
/// var router = Router()
/// router.use(AccessLogMiddleware(logger: logger))
/// router.get("/v2/connect-sessions/{sessionId}") { request in
///     .text(request.parameters["sessionId"]!)
/// }
/// ```
/// A path no route matches is a 404; a path some route matches with another method is a 405 with `Allow`. `HEAD`
/// is answered by the `GET` route when there is no `HEAD` route. Both still run through the middleware, with
/// ``HTTPRequest/route`` `nil`.
public struct Router: Sendable {
    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: HTTPResponder
        /// `handler` inside the middleware chain, composed when the route or a middleware is added rather than on
        /// every request (a closure per middleware per request, otherwise).
        var chain: HTTPResponder
    }

    private var routes: [Route] = []
    /// Routes without parameters, by their exact path: a request for one of these paths with one of their methods is
    /// answered without splitting the path or scanning the table (no pattern can be more specific than an exact one).
    private var exactRoutes: [String: [Route]] = [:]
    private var middleware: [any HTTPMiddleware] = []

    /// An empty router: every request is a 404.
    public init() {}

    /// Adds a route. Patterns start with `/`; `{name}` captures one non-empty segment.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPResponder) {
        let route = Route(
            method: method, pattern: RoutePattern(pattern), handler: handler,
            chain: Self.chain(middleware, around: handler))
        routes.append(route)
        if route.pattern.isExact { exactRoutes[route.pattern.text, default: []].append(route) }
    }

    /// Adds a `GET` route.
    public mutating func get(_ pattern: String, _ handler: @escaping HTTPResponder) { on(.get, pattern, handler) }
    /// Adds a `POST` route.
    public mutating func post(_ pattern: String, _ handler: @escaping HTTPResponder) { on(.post, pattern, handler) }
    /// Adds a `PUT` route.
    public mutating func put(_ pattern: String, _ handler: @escaping HTTPResponder) { on(.put, pattern, handler) }
    /// Adds a `PATCH` route.
    public mutating func patch(_ pattern: String, _ handler: @escaping HTTPResponder) { on(.patch, pattern, handler) }
    /// Adds a `DELETE` route.
    public mutating func delete(_ pattern: String, _ handler: @escaping HTTPResponder) {
        on(.delete, pattern, handler)
    }

    /// Every route added, as `METHOD /pattern` (`{name}` for a capture), in the order added: what a document of the
    /// API (OpenAPI) is checked against.
    public var routeDescriptions: [String] { routes.map { "\($0.method.rawValue) \($0.pattern.text)" } }

    /// Appends a middleware; the first one added is the outermost.
    public mutating func use(_ middleware: any HTTPMiddleware) {
        self.middleware.append(middleware)
        for index in routes.indices {
            routes[index].chain = Self.chain(self.middleware, around: routes[index].handler)
        }
        exactRoutes = [:]
        for route in routes where route.pattern.isExact { exactRoutes[route.pattern.text, default: []].append(route) }
    }

    /// Matches `request`, then runs it through the middleware chain to its handler (or to a 404/405 error).
    ///
    /// `nonisolated(nonsending)`: it runs on its caller's executor, so a server calling it from a request's task
    /// pays no executor switch for it.
    ///
    /// A path that does not start with `/` (a target that is not origin-form: `x/v2/catalog`, `*`, an absolute URL)
    /// is refused with 400 `invalid_target` before matching or any middleware: matching drops the first segment, so
    /// such a path would match a route that a middleware deciding on the path's prefix (authentication) did not see.
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
            chain = route.chain
        case .methodNotAllowed(let allowed):
            chain = Self.chain(middleware) { _ in throw HTTPError.methodNotAllowed(allowed: allowed) }
        case .notFound:
            chain = Self.chain(middleware) { _ in throw HTTPError.notFound }
        }
        return try await chain(request)
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
