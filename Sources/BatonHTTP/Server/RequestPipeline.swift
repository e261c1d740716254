/// What happens to every request once it is read, the same in-process (tests) and behind libmicrohttpd: run the
/// responder, render errors as problem+json, stamp `x-request-id`.
package struct RequestPipeline: Sendable {
    /// What answers: a router (called directly, with no closure in between) or one responder for everything.
    package enum Target: Sendable {
        case router(Router)
        case responder(HTTPResponder)
    }

    let target: Target
    let logger: Logger

    /// A pipeline answering with `target`, logging unhandled errors to `logger`.
    package init(target: Target, logger: Logger) {
        self.target = target
        self.logger = logger
    }

    /// `nonisolated(nonsending)`, like ``Router/respond(to:)``: it runs on its caller's executor, so calling it from
    /// the request's task costs no executor switch.
    nonisolated(nonsending) package func respond(to request: HTTPRequest) async -> HTTPResponse {
        var response: HTTPResponse
        do {
            switch target {
            case .router(let router): response = try await router.respond(to: request)
            case .responder(let responder): response = try await responder(request)
            }
        } catch let error as HTTPError {
            response = error.response()
        } catch {
            // Only the type name: an error's description may carry a URL, a token or SQL arguments.
            logger.log(
                .error, "unhandled_error",
                [
                    "id": .string(request.id), "route": .string(request.route ?? "<unmatched>"),
                    "error_type": .string(String(reflecting: type(of: error))),
                ])
            response = HTTPError.internalError.response(requestID: request.id)
        }
        response.headers.set("x-request-id", request.id)
        // No answer of this server is to be content-sniffed: a JSON body or a problem never renders as HTML.
        response.headers.set("x-content-type-options", "nosniff")
        return response
    }

    /// The answer to a request refused before routing (a limit), still carrying its id.
    static func refusal(_ error: HTTPError, requestID: String) -> HTTPResponse {
        var response = error.response()
        response.headers.set("x-request-id", requestID)
        return response
    }
}
