import BatonHTTP

/// Counts every answered request by route pattern and status for `/metrics`.
struct MetricsMiddleware: HTTPMiddleware {
    let metrics: BackendMetrics

    func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse {
        do {
            let response = try await next(request)
            metrics.recordRequest(route: request.route ?? "<unmatched>", status: response.status)
            return response
        } catch {
            metrics.recordRequest(route: request.route ?? "<unmatched>", status: (error as? HTTPError)?.status ?? 500)
            throw error
        }
    }
}

/// Turns a store that is busy or unreachable into `503` with `Retry-After`, instead of an opaque 500.
struct StoreFailureMiddleware: HTTPMiddleware {
    func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse {
        do {
            return try await next(request)
        } catch let error as StoreError where [.busy, .unavailable, .closed].contains(error.code) {
            throw BackendProblem.storeUnavailable(retryAfter: 1)
        }
    }
}
