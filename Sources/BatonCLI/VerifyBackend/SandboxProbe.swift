import BatonCore
import BatonHTTP

/// The `baton sandbox` the partner's backend uses as its providers, read through its control API
/// (docs/CONTRACTS.md §4.4): what exists at each provider, which calls reached it, faults, journey completion, and
/// where webhooks go. This is how the kit tells one journey from two.
struct SandboxProbe: Sendable {
    /// Each provider's origin (`http://127.0.0.1:PORT`), found by asking every origin which provider it is.
    let origins: [VerifyFlow: String]
    let http: VerifyHTTP

    /// Finds the three providers among `urls`. One URL is taken as `baton sandbox --port P` (Chia on P) and
    /// `P+1`, `P+2` are asked too; `baton serve --sandbox --port P` has them on P+1..P+3, so pass `http://…:P+1`.
    static func discover(_ urls: [String], http: VerifyHTTP) async throws(CheckFailure) -> SandboxProbe {
        var candidates = urls.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        if candidates.count == 1, let (prefix, port) = splitPort(candidates[0]) {
            candidates += [prefix + ":\(port + 1)", prefix + ":\(port + 2)"]
        }
        var origins: [VerifyFlow: String] = [:]
        for origin in candidates {
            guard let reply = try? await http.send(.get, origin + "/_sandbox/state"), reply.status == 200,
                let name = reply.json?["provider"]?.stringValue, let flow = VerifyFlow(rawValue: name)
            else { continue }
            origins[flow] = origins[flow] ?? origin
        }
        guard !origins.isEmpty else {
            throw CheckFailure(
                "no baton sandbox answered GET /_sandbox/state at \(candidates.joined(separator: ", "))")
        }
        return SandboxProbe(origins: origins, http: http)
    }

    static func splitPort(_ origin: String) -> (String, Int)? {
        guard let colon = origin.lastIndex(of: ":"), let port = Int(origin[origin.index(after: colon)...]),
            port > 0, port < 65_534
        else { return nil }
        return (String(origin[..<colon]), port)
    }

    func origin(_ flow: VerifyFlow) throws(CheckNotRun) -> String {
        guard let origin = origins[flow] else { throw CheckNotRun("no \(flow.rawValue) sandbox origin found") }
        return origin
    }

    /// `GET /_sandbox/state`'s `state` member.
    func state(_ flow: VerifyFlow) async throws -> JSONValue {
        let reply = try await http.send(.get, try origin(flow) + "/_sandbox/state")
        guard reply.status == 200, let state = reply.json?["state"] else {
            throw CheckFailure("GET /_sandbox/state on \(flow.rawValue): \(reply.summary)")
        }
        return state
    }

    /// Chia's handoff sessions (`{"id","idempotencyKey",…}`), oldest first.
    func chiaSessions() async throws -> [JSONValue] {
        try await state(.chia)["handoffSessions"]?.arrayValue ?? []
    }

    /// Privue's verifications, each with its `handoffs`.
    func privueVerifications() async throws -> [JSONValue] {
        try await state(.privue)["verifications"]?.arrayValue ?? []
    }

    /// BB's connect sessions.
    func bbSessions() async throws -> [JSONValue] {
        try await state(.bb)["connectSessions"]?.arrayValue ?? []
    }

    /// The provider API calls logged so far (`{"sequence","method","path","route","idempotencyKey","status",…}`).
    func requests(_ flow: VerifyFlow) async throws -> [JSONValue] {
        let reply = try await http.send(.get, try origin(flow) + "/_sandbox/requests")
        guard reply.status == 200, let list = reply.json?["requests"]?.arrayValue else {
            throw CheckFailure("GET /_sandbox/requests on \(flow.rawValue): \(reply.summary)")
        }
        return list
    }

    /// Makes every call to `endpoint` (`METHOD /pattern`) answer `status` until ``clearFaults(_:)``.
    func injectStatus(_ flow: VerifyFlow, endpoint: String, status: Int) async throws {
        let body: JSONValue = ["endpoint": .string(endpoint), "fault": "status", "status": .integer(status)]
        let reply = try await http.json(.post, try origin(flow) + "/_sandbox/faults", body)
        guard reply.status == 201 else { throw CheckFailure("POST /_sandbox/faults: \(reply.summary)") }
    }

    func clearFaults(_ flow: VerifyFlow) async throws {
        _ = try await http.send(.delete, try origin(flow) + "/_sandbox/faults")
    }

    /// Drives a Privue verification or BB connect session to an outcome without a browser.
    func complete(_ flow: VerifyFlow, id: String, _ body: JSONValue) async throws -> JSONValue {
        let reply = try await http.json(.post, try origin(flow) + "/_sandbox/journeys/\(id)/complete", body)
        guard reply.status == 200, let json = reply.json else {
            throw CheckFailure("POST /_sandbox/journeys/{id}/complete on \(flow.rawValue): \(reply.summary)")
        }
        return json
    }

    /// Where the provider's webhooks go now (`nil`: nowhere), and its deliveries.
    func webhooks(_ flow: VerifyFlow) async throws -> (target: String?, deliveries: [JSONValue]) {
        let reply = try await http.send(.get, try origin(flow) + "/_sandbox/webhooks")
        guard reply.status == 200, let json = reply.json else {
            throw CheckFailure("GET /_sandbox/webhooks on \(flow.rawValue): \(reply.summary)")
        }
        return (json["target"]?.stringValue, json["deliveries"]?.arrayValue ?? [])
    }

    func setWebhookTarget(_ flow: VerifyFlow, _ url: String?) async throws {
        let reply = try await http.json(
            .put, try origin(flow) + "/_sandbox/webhooks/target", ["url": .optional(url)])
        guard reply.status == 204 else { throw CheckFailure("PUT /_sandbox/webhooks/target: \(reply.summary)") }
    }
}
