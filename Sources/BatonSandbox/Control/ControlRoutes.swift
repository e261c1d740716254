import BatonCore
import BatonHTTP
import Foundation

/// The control API every sandbox origin serves under `/_sandbox/` (no provider key; local requests only, see
/// ``LocalRequestCheck``; never part of a real provider or of the backend). See docs/CONTRACTS.md §4.4.
struct ControlRoutes {
    let simulator: any ProviderSimulator
    let log: RequestLog
    let faults: FaultInjector
    let hangs: HangingRequests
    let clock: SandboxClock

    /// Where the control API is served: every request under it, a 404 included, must come from this machine.
    static let path = "/_sandbox"

    /// The most one `POST /_sandbox/clock` moves the clock, either way.
    static let maxClockStep: Int64 = 86_400

    func add(to router: inout Router) {
        let simulator = simulator
        let log = log
        let faults = faults
        let hangs = hangs
        let clock = clock
        // The control API has no key: only pages and tools on this machine reach it (CSRF, DNS rebinding).
        let localOnly = ClosureMiddleware { request, next in
            if let refusal = LocalRequestCheck.refusal(for: request) { throw refusal }
            return try await next(request)
        }
        router.group(Self.path, middleware: [localOnly]) { control in
            control.get("/requests") { _ in
                .sandboxJSON(["requests": .array(await log.list().map(\.json))] as JSONValue)
            }
            control.get("/state") { _ in
                .sandboxJSON(["provider": .string(simulator.name), "state": await simulator.stateJSON()] as JSONValue)
            }
            control.post("/reset") { _ in
                await Self.reset(simulator: simulator, log: log, faults: faults, hangs: hangs)
                return HTTPResponse(status: 204)
            }
            control.post("/journeys/{id}/complete") { request in
                await simulator.completeJourney(id: request.parameters["id"] ?? "", body: request.body)
            }
            control.get("/faults") { _ in
                .sandboxJSON(["faults": .array(await faults.list().map(Self.json))] as JSONValue)
            }
            control.post("/faults") { request in
                guard let spec = try? JSONDecoder().decode(FaultSpec.self, from: Data(request.body)) else {
                    throw HTTPError.badRequest(code: "invalid_fault", detail: "Body must be a fault object.")
                }
                switch await faults.add(spec) {
                case .success(let rule): return .sandboxJSON(Self.json(rule), status: 201)
                case .failure(let error): throw HTTPError.badRequest(code: "invalid_fault", detail: error.reason)
                }
            }
            control.delete("/faults") { _ in
                await faults.clear()
                await hangs.releaseAll()
                return HTTPResponse(status: 204)
            }
            control.get("/clock") { _ in .sandboxJSON(Self.json(clock)) }
            control.post("/clock") { request in
                guard clock.offsetSeconds != nil else {
                    throw HTTPError(
                        status: 409, code: "clock_fixed",
                        detail:
                            "This sandbox's clock cannot be moved; baton serve --sandbox and baton demo run one that can."
                    )
                }
                guard let body = StrictJSONObject(request.body, allowedKeys: ["advanceSeconds"]),
                    let seconds = body.integer("advanceSeconds"), abs(seconds) <= Self.maxClockStep
                else {
                    throw HTTPError.badRequest(
                        code: "invalid_clock",
                        detail: "Body must be {\"advanceSeconds\": a whole number from -86400 to 86400}.")
                }
                clock.shift(by: TimeInterval(seconds))
                return .sandboxJSON(Self.json(clock))
            }
            control.get("/webhooks") { _ in
                let deliveries = simulator.webhooks?.deliveries() ?? []
                return .sandboxJSON(
                    [
                        "target": .optional(simulator.webhooks?.target),
                        "deliveries": .array(deliveries.map(Self.json)),
                    ] as JSONValue)
            }
            control.put("/webhooks/target") { request in
                guard let webhooks = simulator.webhooks else {
                    throw HTTPError(status: 404, code: "no_webhooks", detail: "This provider sends no webhooks.")
                }
                guard let body = StrictJSONObject(request.body, allowedKeys: ["url"]),
                    case .some(let url) = body.optionalString("url"), url.map(Self.isHTTPURL) ?? true
                else {
                    throw HTTPError.badRequest(
                        code: "invalid_target", detail: "Body must be {\"url\": http(s) URL|null}.")
                }
                webhooks.target = url
                return HTTPResponse(status: 204)
            }
        }
    }

    static func reset(
        simulator: any ProviderSimulator, log: RequestLog, faults: FaultInjector, hangs: HangingRequests
    ) async {
        await faults.clear()
        await hangs.releaseAll()
        simulator.webhooks?.reset()
        await simulator.reset()
        await log.clear()
    }

    static func isHTTPURL(_ string: String) -> Bool {
        RawURLComponents(string).map { ["http", "https"].contains($0.normalizedScheme) } ?? false
    }

    static func json(_ clock: SandboxClock) -> JSONValue {
        ["now": .date(clock.now()), "offsetSeconds": clock.offsetSeconds.map { .integer(Int($0)) } ?? .null]
    }

    static func json(_ rule: FaultInjector.Rule) -> JSONValue {
        let spec = rule.spec
        return [
            "id": .string(rule.id), "endpoint": .string(spec.endpoint), "fault": .string(spec.fault.rawValue),
            "status": spec.status.map(JSONValue.integer) ?? .null,
            "retryAfterSeconds": spec.retryAfterSeconds.map(JSONValue.integer) ?? .null,
            "latencyMs": spec.latencyMs.map(JSONValue.integer) ?? .null,
            "remaining": rule.remaining.map(JSONValue.integer) ?? .null,
            "fraction": spec.fraction.map(JSONValue.number) ?? .null, "fired": .integer(rule.fired),
        ]
    }

    static func json(_ delivery: WebhookDispatcher.Delivery) -> JSONValue {
        [
            "id": .string(delivery.event.id), "type": .string(delivery.event.type),
            "state": .string(delivery.state.rawValue),
            "attempts": .array(
                delivery.attempts.map { attempt in
                    [
                        "at": .date(attempt.at), "status": attempt.status.map(JSONValue.integer) ?? .null,
                        "error": .optional(attempt.error),
                    ]
                }),
        ]
    }
}
