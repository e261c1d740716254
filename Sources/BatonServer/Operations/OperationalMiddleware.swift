import BatonHTTP

/// Counts every answered request by route pattern and status, and times it per route pattern, for `/metrics`.
struct MetricsMiddleware: HTTPMiddleware {
    let metrics: BackendMetrics
    var now: @Sendable () -> ContinuousClock.Instant = { .now }

    nonisolated(nonsending) func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse {
        let start = now()
        let route = request.route ?? "<unmatched>"
        do {
            let response = try await next(request)
            record(route, status: response.status, since: start)
            return response
        } catch {
            record(route, status: (error as? HTTPError)?.status ?? 500, since: start)
            throw error
        }
    }

    private func record(_ route: String, status: Int, since start: ContinuousClock.Instant) {
        metrics.recordRequest(route: route, status: status)
        let elapsed = now() - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        metrics.recordRequestDuration(route: route, seconds: seconds)
    }
}

/// Turns a store that is busy or unreachable into `503 service_unavailable` with `Retry-After`, instead of an opaque
/// 500, and reports outages to ``StoreOutageLog``: the first refusal logs why, the first success of a route that
/// reads or writes the store (one that declares ``StoreBackedRouteKey``) ends the outage (a write, if the outage refuses writes only: a full disk). Each outcome goes with the ``StoreOutageLog/Mark`` taken when the
/// request began, so an answer that was overtaken by newer ones cannot end an outage early or open a second one.
struct StoreFailureMiddleware: HTTPMiddleware {
    let outages: StoreOutageLog

    nonisolated(nonsending) func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse {
        let began = outages.mark()
        do {
            let response = try await next(request)
            if (200..<300).contains(response.status), outages.isDown,
                request.attributes[StoreBackedRouteKey.self] == true
            {
                outages.succeeded(since: began, read: request.method == .get || request.method == .head)
            }
            return response
        } catch let error as StoreError where [.busy, .unavailable, .closed].contains(error.code) {
            outages.failed(error, since: began)
            throw BackendProblem.storeUnavailable(retryAfter: 1)
        }
    }
}

/// Declared by a route that reads or writes the store, so that its 2xx answer proves the store answered
/// (``StoreFailureMiddleware``).
enum StoreBackedRouteKey: RequestAttributeKey {
    typealias Value = Bool
}

extension RequestAttributes {
    /// A route that reads or writes the store (``StoreBackedRouteKey``).
    static let storeBacked = RequestAttributes().with(StoreBackedRouteKey.self, true)
}
