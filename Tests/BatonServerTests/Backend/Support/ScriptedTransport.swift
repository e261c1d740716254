import BatonHTTP
import Foundation
import Synchronization
import Testing

/// An ``HTTPTransport`` that answers from handlers the test installs, and records every request it was sent.
final class ScriptedTransport: HTTPTransport {
    typealias Handler = @Sendable (OutboundRequest) async throws -> OutboundResponse

    /// One request as the provider saw it (headers kept so tests can check keys were sent, never logged).
    struct Seen: Sendable {
        let method: HTTPMethod
        let path: String
        let headers: HTTPHeaders
        let body: [UInt8]
    }

    private let handlers = Mutex<[(method: HTTPMethod, prefix: String, handler: Handler)]>([])
    private let seen = Mutex<[Seen]>([])

    /// Answers `method` requests whose path starts with `prefix` (the last installed match wins).
    func on(_ method: HTTPMethod, _ prefix: String, _ handler: @escaping Handler) {
        handlers.withLock { $0.append((method, prefix, handler)) }
    }

    /// Every request sent so far.
    var requests: [Seen] { seen.withLock { $0 } }

    /// Requests sent to paths starting with `prefix`.
    func requests(_ method: HTTPMethod, _ prefix: String) -> [Seen] {
        requests.filter { $0.method == method && $0.path.hasPrefix(prefix) }
    }

    func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        let path = Self.path(of: request.url)
        seen.withLock {
            $0.append(Seen(method: request.method, path: path, headers: request.headers, body: request.body))
        }
        let handler = handlers.withLock { list in
            list.last { $0.method == request.method && path.hasPrefix($0.prefix) }?.handler
        }
        guard let handler else { throw TransportError(.connectFailed, detail: "no scripted handler") }
        return try await handler(request)
    }

    static func path(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...])
    }

    static func json(_ status: Int, _ object: [String: Any], headers: HTTPHeaders = [:]) -> OutboundResponse {
        var headers = headers
        headers.set("content-type", "application/json")
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return OutboundResponse(status: status, headers: headers, body: Array(data))
    }
}

/// A gate a scripted handler waits at until the test opens it, reporting when the first request arrived.
final class Gate: Sendable {
    private struct State {
        var open = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var arrivals = 0
        var arrivalWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Called by the handler: records the arrival and suspends until ``open()``.
    func pass() async {
        let arrived = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.arrivals += 1
            defer { state.arrivalWaiters = [] }
            return state.arrivalWaiters
        }
        for waiter in arrived { waiter.resume() }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Suspends until at least one request has arrived at the gate.
    func waitForArrival() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.arrivals > 0 { return true }
                state.arrivalWaiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Lets every waiting and future request through.
    func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
    }
}

/// Waits until `condition` holds, checking every few milliseconds for at most `limit`: only for conditions a real
/// background task (a request in flight on a server thread) must bring about.
func eventually(
    within limit: Duration = .seconds(20), _ condition: @Sendable () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while try await !condition() {
        guard clock.now < deadline else {
            Issue.record("condition did not hold within \(limit)")
            return
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}
