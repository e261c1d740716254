import BatonHTTP

/// The middleware in front of every provider route (never the control API): writes the request log, then applies
/// the fault that fires, if any.
struct SandboxMiddleware: HTTPMiddleware {
    /// The response status that makes BatonHTTP close the connection without answering.
    ///
    /// libmicrohttpd refuses to queue a status outside 100–999 (`MHD_queue_response` returns `MHD_NO`), and
    /// BatonHTTP then ends the request, which closes the connection with nothing written: a dropped connection, as
    /// the client sees it. (Relies on BatonHTTP returning the queue result to libmicrohttpd; see the fault tests.)
    static let dropConnectionStatus = 0

    /// How long a `timeout` fault holds a call at most (it is released earlier on reset and shutdown).
    static let hangLimit: Duration = .seconds(300)

    let simulator: any ProviderSimulator
    let log: RequestLog
    let faults: FaultInjector
    let hangs: HangingRequests

    nonisolated(nonsending) func handle(_ request: HTTPRequest, next: HTTPResponder) async throws -> HTTPResponse {
        guard !request.path.hasPrefix(ControlRoutes.path + "/") else { return try await next(request) }
        let route = request.route
        let path = if let route, simulator.sensitiveRoutes.contains(route) { route } else { request.path }
        let sequence = await log.begin(
            method: request.method.rawValue, path: path, route: route,
            idempotencyKey: request.headers["idempotency-key"])
        var faultName: String?
        var response: HTTPResponse
        do {
            if let decision = await faults.decide(method: request.method.rawValue, route: route, path: request.path) {
                faultName = decision.outcome == nil ? "latency" : nil
                if let latency = decision.latency { try await Task.sleep(for: latency) }
                switch decision.outcome {
                case nil:
                    response = try await next(request)
                case .status(let status, let retryAfter):
                    faultName = "status"
                    response = simulator.errorResponse(
                        status: status, code: Self.code(for: status), message: "Injected by the sandbox.")
                    if let retryAfter { response.headers.set("retry-after", String(retryAfter)) }
                case .drop:
                    faultName = "drop"
                    response = HTTPResponse(status: Self.dropConnectionStatus)
                case .timeout:
                    faultName = "timeout"
                    await hangs.hang(limit: Self.hangLimit)
                    response = simulator.errorResponse(
                        status: 504, code: "sandbox_timeout", message: "Released by the sandbox.")
                }
            } else {
                response = try await next(request)
            }
        } catch let error as HTTPError {
            response = error.response()
        }
        let status = response.status == Self.dropConnectionStatus ? nil : response.status
        await log.finish(sequence, status: status, fault: faultName)
        return response
    }

    static func code(for status: Int) -> String {
        switch status {
        case 429: "rate_limited"
        case 500: "internal_error"
        case 502: "bad_gateway"
        case 503: "service_unavailable"
        case 504: "gateway_timeout"
        default: "injected_error"
        }
    }
}
