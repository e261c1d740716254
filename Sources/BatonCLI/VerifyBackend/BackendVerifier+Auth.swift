import BatonCore
import BatonHTTP
import Foundation

extension BackendVerifier {
    /// The `/v2` routes of the chosen flows, each with a body that would be valid with a token.
    var protectedRoutes: [(HTTPMethod, String, JSONValue?)] {
        var routes: [(HTTPMethod, String, JSONValue?)] = []
        if options.flows.contains(.chia) {
            routes += [(.get, "/v2/catalog", nil), (.post, "/v2/handoff-sessions", Self.shareBody("cat", "v"))]
        }
        if options.flows.contains(.privue) {
            routes += [
                (.post, "/v2/verification-handoffs", ["workflow": .string(options.privueWorkflow)]),
                (.get, "/v2/verifications/" + options.privueWorkflow, nil),
            ]
        }
        if options.flows.contains(.bb) {
            routes += [
                (.post, "/v2/connect-sessions", ["callback": "https"]), (.get, "/v2/connect-sessions/cs_x", nil),
            ]
        }
        return routes
    }

    func runAuth(_ ledger: inout CheckLedger) async {
        let contract = "§2 Auth: every /v2/* route answers a missing token with 401 unauthorized and "
        await ledger.check("auth.missing-token", contract + "WWW-Authenticate: Bearer") {
            for (method, path, body) in protectedRoutes {
                let reply = try await send(method, path, body: body, headers: ["idempotency-key": Self.newKey()])
                try reply.expectProblem(401, "unauthorized", "\(method) \(path) without a token")
                let challenge = reply.headers["www-authenticate"]?.lowercased() ?? ""
                try expect(challenge.hasPrefix("bearer"), "\(method) \(path): 401 without WWW-Authenticate: Bearer")
            }
        }
        await ledger.check(
            "auth.refused-token", "§2 Auth: a malformed or altered token is the same bare 401 unauthorized"
        ) {
            let real = try await auth(options.flows.contains(.chia) ? "chia" : "flow")["authorization"] ?? ""
            let altered = Self.altered(real)
            for token in ["Bearer not-a-token", altered, "Basic dXNlcjpwYXNz"] {
                for (method, path, body) in protectedRoutes {
                    let reply = try await send(
                        method, path, body: body, headers: ["authorization": token, "idempotency-key": Self.newKey()])
                    try reply.expectProblem(401, "unauthorized", "\(method) \(path) with a refused token")
                }
            }
        }
    }

    /// Problem answers every route shares (§2 "Problem codes"): an unknown route and a method a route does not take.
    func runProblems(_ ledger: inout CheckLedger) async {
        let role = options.flows.contains(.chia) ? "chia" : "flow"
        await ledger.check("problems.not-found", "§2 problem codes: 404 not_found for a route that does not exist") {
            let reply = try await send(.get, "/v2/verify-backend-no-such-route", headers: try await auth(role))
            try reply.expectProblem(404, "not_found", "an unknown route")
        }
        await ledger.check(
            "problems.method-not-allowed", "§2 problem codes: 405 method_not_allowed with Allow for another method"
        ) {
            guard let (method, path, _) = protectedRoutes.first else { throw CheckNotRun("no route to ask") }
            let other: HTTPMethod = method == .get ? .delete : .put
            let reply = try await send(other, path, headers: try await auth(role))
            try reply.expectProblem(405, "method_not_allowed", "\(other) \(path)")
            let allow = reply.headers["allow"]?.uppercased() ?? ""
            try expect(allow.contains(method.rawValue), "the 405 has no Allow naming \(method)")
        }
    }

    /// Sends `body` as JSON (or nothing) to the backend's `path`.
    func send(
        _ method: HTTPMethod, _ path: String, body: JSONValue? = nil, headers: HTTPHeaders = [:]
    )
        async throws(CheckFailure) -> VerifyReply
    {
        if let body { return try await http.json(method, url(path), body, headers: headers) }
        return try await http.send(method, url(path), headers: headers)
    }

    /// `header` with one letter or digit in the middle of its token changed. (Not the last character: in base64 it
    /// may carry only padding bits, which a lenient decoder ignores, leaving the signature the same.)
    static func altered(_ header: String) -> String {
        var characters = Array(header)
        let start = "Bearer ".count
        let middle = start + (characters.count - start) / 2
        let alphanumeric = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber) }
        guard
            let index = (middle..<characters.count).first(where: { alphanumeric(characters[$0]) })
                ?? (start..<middle).last(where: { alphanumeric(characters[$0]) })
        else { return header + "x" }
        characters[index] = characters[index] == "A" ? "B" : "A"
        return String(characters)
    }

    static func newKey() -> String { IdempotencyKey.random().rawValue }

    static func shareBody(_ item: String, _ version: String, at date: Date = Date()) -> JSONValue {
        [
            "catalogItemId": .string(item), "disclosureVersion": .string(version), "affirmed": true,
            "affirmedAt": .string(RFC3339.string(from: date)),
        ]
    }
}

extension HTTPHeaders {
    /// These fields plus `other`'s.
    func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var merged = self
        for field in other { merged.set(field.name, field.value) }
        return merged
    }
}
