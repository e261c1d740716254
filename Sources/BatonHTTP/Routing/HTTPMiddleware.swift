/// Something that answers a request: a route handler, or the rest of a middleware chain.
public typealias HTTPResponder = nonisolated(nonsending) @Sendable (HTTPRequest) async throws -> HTTPResponse

/// A step around every routed request: request ids, access logs, authentication, rate limits.
///
/// A middleware may answer by itself (throw ``HTTPError/unauthorized(detail:)``), change the request it passes on
/// (attach an authenticated user in ``HTTPRequest/attributes``), or change the response. The route has already been
/// matched, so ``HTTPRequest/route`` is set (or `nil` when the answer will be 404/405).
public protocol HTTPMiddleware: Sendable {
    /// Handles `request`, calling `next` to continue the chain.
    ///
    /// `nonisolated(nonsending)`, like ``HTTPResponder``: it runs on its caller's executor, so stepping through the
    /// chain costs no executor switch (conformers declare it too; one that does not pays a switch per request).
    nonisolated(nonsending) func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse
}

/// A middleware made from a closure, for small one-off steps.
public struct ClosureMiddleware: HTTPMiddleware {
    private let body: nonisolated(nonsending) @Sendable (HTTPRequest, HTTPResponder) async throws -> HTTPResponse

    /// Wraps `body`.
    public init(
        _ body: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, HTTPResponder) async throws -> HTTPResponse
    ) {
        self.body = body
    }

    nonisolated(nonsending) public func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse
    {
        try await body(request, next)
    }
}
