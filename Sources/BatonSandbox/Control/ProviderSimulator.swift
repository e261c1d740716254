import BatonCore
import BatonHTTP

/// One simulated provider, as the shared machinery (control API, request log, faults) sees it.
protocol ProviderSimulator: Sendable {
    /// `chia`, `privue` or `bb`.
    var name: String { get }
    /// Route patterns whose paths carry a journey credential; the request log shows the pattern instead.
    var sensitiveRoutes: Set<String> { get }
    /// The provider's webhook sender, if it sends webhooks.
    var webhooks: WebhookDispatcher? { get }
    /// Adds the provider API and hosted-journey routes.
    func addRoutes(to router: inout Router)
    /// The provider's error body for `status`/`code`, in its own wire shape (faults use it too).
    func errorResponse(status: Int, code: String, message: String) -> HTTPResponse
    /// The `state` member of `GET /_sandbox/state`: what exists, without secrets or journey URLs.
    func stateJSON() async -> JSONValue
    /// Drives journey `id` to the outcome in `body` (`POST /_sandbox/journeys/{id}/complete`).
    func completeJourney(id: String, body: [UInt8]) async -> HTTPResponse
    /// Uses `origin` for the URLs it makes.
    func useOrigin(_ origin: WebOrigin) async
    /// Forgets all state.
    func reset() async
}
