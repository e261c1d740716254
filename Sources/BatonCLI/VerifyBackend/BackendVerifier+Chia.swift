import BatonCore
import BatonHTTP
import Foundation

extension BackendVerifier {
    /// Members of Chia's raw catalog item that the app must never receive (seed 000: no raw catalog object, no
    /// authenticated asset URL, no status), and names of secrets.
    static let forbiddenCardMembers: Set<String> = [
        "status", "imageAssetId", "imageAltText", "mirroredImageUrl", "regions", "sharingAllowed", "neutralHeading",
        "neutralBody", "neutralUrl", "disclosure", "apiKey", "api_key", "webhookSecret", "secret", "orderStatus",
        "patientStatus",
    ]
    static let cardMembers: Set<String> = [
        "id", "presentation_contract", "title", "summary", "priceText", "image", "handoff",
    ]

    /// What a share needs from the catalog: a `share_or_neutral` item with its disclosure version, and a
    /// `neutral_only` item when there is one.
    struct ShareTarget {
        let item: String
        let version: String
        let neutralItem: String?
    }

    func runChia(_ ledger: inout CheckLedger, _ probe: SandboxProbe) async {
        var target: ShareTarget?
        await ledger.check(
            "chia.catalog.closed",
            "§2 GET /v2/catalog + seed 000 MobileHandoff: the closed projection; hidden and withdrawn items absent"
        ) {
            target = try await checkCatalog(probe)
        }
        func needTarget() throws -> ShareTarget {
            guard let target else { throw CheckNotRun("the catalog offered no share_or_neutral item") }
            return target
        }
        let table = "§2 share idempotency: "
        var appKeys: [String] = []
        var first: (key: String, body: JSONValue, url: String, session: JSONValue)?
        await ledger.check(
            "chia.share.created",
            table + "first request → 201 {url, expiresAt} with Cache-Control: no-store; one journey at Chia"
        ) {
            let share = try needTarget()
            let key = Self.newKey()
            appKeys.append(key)
            let body = Self.shareBody(share.item, share.version)
            let before = try await probe.chiaSessions()
            let reply = try await send(
                .post, "/v2/handoff-sessions", body: body, headers: try await shareHeaders("chia", key))
            try expect(reply.status == 201, "expected 201, got \(reply.summary)")
            let url = try Self.journeyURL(reply, "the share")
            let created = try await Self.newEntries(before, try await probe.chiaSessions())
            try expect(created.count == 1, "expected one new handoff session at Chia, found \(created.count)")
            first = (key, body, url, created[0])
            try Self.expectNoStore(reply, "the share")
        }
        await ledger.check(
            "chia.share.key-not-forwarded",
            table + "Chia gets the key derived for (user, key), never the app's key"
        ) {
            guard let first else { throw CheckNotRun("the first share did not succeed") }
            let providerKey = first.session["idempotencyKey"]?.stringValue
            try expect(providerKey != nil, "Chia's session has no idempotency key")
            try expect(
                providerKey?.lowercased() != first.key.lowercased(), "the backend sent Chia the app's Idempotency-Key")
        }
        await ledger.check(
            "chia.share.replay",
            table + "same key, same body, finished → the same 201, Idempotent-Replayed: true, no new journey"
        ) {
            guard let first else { throw CheckNotRun("the first share did not succeed") }
            let before = try await probe.chiaSessions()
            let reply = try await send(
                .post, "/v2/handoff-sessions", body: first.body, headers: try await shareHeaders("chia", first.key))
            try expect(reply.status == 201, "expected 201, got \(reply.summary)")
            try expect(try Self.journeyURL(reply, "the replay") == first.url, "the replay returned another URL")
            try expect(
                reply.headers["idempotent-replayed"]?.lowercased() == "true",
                "the replay has no Idempotent-Replayed: true")
            let created = try await Self.newEntries(before, try await probe.chiaSessions())
            try expect(created.isEmpty, "the replay made \(created.count) new journey(s) at Chia")
            try Self.expectNoStore(reply, "the replay")
        }
        await ledger.check("chia.share.key-reused", table + "same key, different body → 422 idempotency_key_reused") {
            guard let first else { throw CheckNotRun("the first share did not succeed") }
            let share = try needTarget()
            let other = Self.shareBody(share.item, share.version, at: Date().addingTimeInterval(-60))
            let reply = try await send(
                .post, "/v2/handoff-sessions", body: other, headers: try await shareHeaders("chia", first.key))
            try reply.expectProblem(422, "idempotency_key_reused", "the same key with another body")
        }
        await ledger.check(
            "chia.share.concurrent-taps",
            table + "same key, same body, still running: 16 concurrent requests → one journey, one URL"
        ) {
            let share = try needTarget()
            let key = Self.newKey()
            appKeys.append(key)
            let body = Self.shareBody(share.item, share.version)
            let headers = try await shareHeaders("chia-taps", key)
            let before = try await probe.chiaSessions()
            let replies = await withTaskGroup(of: Result<VerifyReply, CheckFailure>.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        do {
                            return .success(try await send(.post, "/v2/handoff-sessions", body: body, headers: headers))
                        } catch { return .failure(error as? CheckFailure ?? CheckFailure("\(type(of: error))")) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            var urls = Set<String>()
            for result in replies {
                let reply = try result.get()
                if reply.status == 503 || reply.status == 429 {
                    // Past the server's bound a joined request may be told to retry, and a per-user limit may
                    // refuse some taps first (§2 "Per-user rate limit"): both retryable, with Retry-After.
                    try reply.expectProblem([503, 429], nil, "a concurrent tap")
                    try expect(reply.retryAfter != nil, "a concurrent tap's \(reply.status) has no Retry-After")
                    continue
                }
                try expect(reply.status == 201, "a concurrent tap got \(reply.summary)")
                urls.insert(try Self.journeyURL(reply, "a concurrent tap"))
                try Self.expectNoStore(reply, "a concurrent tap")
            }
            try expect(urls.count == 1, "16 concurrent taps returned \(urls.count) different URLs")
            let created = try await Self.newEntries(before, try await probe.chiaSessions())
            try expect(created.count == 1, "16 concurrent taps made \(created.count) journeys at Chia")
        }
        await ledger.check(
            "chia.share.other-user",
            table + "another user sends the same key and body → that user's own journey, never the first user's URL"
        ) {
            guard let first else { throw CheckNotRun("the first share did not succeed") }
            let before = try await probe.chiaSessions()
            let reply = try await send(
                .post, "/v2/handoff-sessions", body: first.body,
                headers: try await shareHeaders("chia-other", first.key))
            try expect(reply.status == 201, "expected 201 for the other user, got \(reply.summary)")
            try expect(
                try Self.journeyURL(reply, "the other user's share") != first.url,
                "the other user got the first user's URL")
            try expect(
                reply.headers["idempotent-replayed"] == nil, "the other user's first share is marked as a replay")
            let created = try await Self.newEntries(before, try await probe.chiaSessions())
            try expect(created.count == 1, "expected the other user's own journey at Chia, found \(created.count) new")
            try Self.expectNoStore(reply, "the other user's share")
        }
        await ledger.check(
            "chia.share.key-invalid", table + "key missing or not a UUIDv4 → 400 idempotency_key_invalid"
        ) {
            let share = try needTarget()
            let body = Self.shareBody(share.item, share.version)
            let authHeaders = try await auth("chia-refusals")
            for key in [nil, "not-a-uuid", "123e4567-e89b-12d3-a456-426614174000"] as [String?] {
                var headers = authHeaders
                if let key { headers.set("idempotency-key", key) }
                let reply = try await send(.post, "/v2/handoff-sessions", body: body, headers: headers)
                try reply.expectProblem(400, "idempotency_key_invalid", key.map { "the key '\($0)'" } ?? "no key")
            }
        }
        await ledger.check(
            "chia.share.body-invalid", table + "body malformed, unknown field, affirmed not true → 400 invalid_request"
        ) {
            let share = try needTarget()
            let good = Self.shareBody(share.item, share.version)
            var unknown = good.members ?? [:]
            unknown["extra"] = "x"
            var notAffirmed = good.members ?? [:]
            notAffirmed["affirmed"] = false
            let bodies: [(String, [UInt8])] = [
                ("a body that is not JSON", Array("{".utf8)),
                ("an unknown member", Array(JSONValue.object(unknown.map { .init($0.key, $0.value) }).rendered.utf8)),
                ("affirmed false", Array(JSONValue.object(notAffirmed.map { .init($0.key, $0.value) }).rendered.utf8)),
            ]
            for (what, body) in bodies {
                var headers = try await shareHeaders("chia-refusals", Self.newKey())
                headers.set("content-type", "application/json")
                let reply = try await http.send(.post, url("/v2/handoff-sessions"), headers: headers, body: body)
                try reply.expectProblem(400, "invalid_request", what)
            }
        }
        await ledger.check(
            "chia.share.projection-changed",
            table + "item neutral_only for this user, or disclosureVersion not current → 409 projection_changed"
        ) {
            let share = try needTarget()
            var cases = [("a stale disclosureVersion", Self.shareBody(share.item, "1999-01-01"))]
            if let neutral = share.neutralItem {
                cases.append(("a neutral_only item", Self.shareBody(neutral, share.version)))
            }
            for (what, body) in cases {
                let before = try await probe.chiaSessions()
                let reply = try await send(
                    .post, "/v2/handoff-sessions", body: body,
                    headers: try await shareHeaders("chia-projection", Self.newKey()))
                try reply.expectProblem(409, "projection_changed", what)
                let created = try await Self.newEntries(before, try await probe.chiaSessions())
                try expect(created.isEmpty, "\(what) made a journey at Chia")
            }
        }
        await runChiaFaults(&ledger, probe, target: target, appKeys: &appKeys)
        await ledger.check(
            "chia.share.no-app-key-upstream", "§2 share idempotency: no Idempotency-Key the app sent ever reaches Chia"
        ) {
            guard !appKeys.isEmpty else { throw CheckNotRun("no share reached the backend") }
            let sent = Set(appKeys.map { $0.lowercased() })
            let upstream = try await probe.requests(.chia).compactMap {
                $0["idempotencyKey"]?.stringValue?.lowercased()
            }
            let leaked = upstream.filter(sent.contains)
            try expect(leaked.isEmpty, "\(leaked.count) call(s) to Chia carried the app's own Idempotency-Key")
        }
    }

    func shareHeaders(_ role: String, _ key: String) async throws -> HTTPHeaders {
        try await auth(role).merging(["idempotency-key": key])
    }

    /// The `url` of a 201 share's `{"url","expiresAt"}` (``expectNoStore(_:_:)`` checks its caching separately, so a
    /// missing `no-store` fails only the checks that see it).
    static func journeyURL(_ reply: VerifyReply, _ what: String) throws -> String {
        guard let url = reply.json?["url"]?.stringValue, reply.json?["expiresAt"]?.stringValue != nil else {
            throw CheckFailure("\(what): the body is not {\"url\",\"expiresAt\"}")
        }
        return url
    }

    /// A response carrying a journey URL must say `Cache-Control: no-store` (§2).
    static func expectNoStore(_ reply: VerifyReply, _ what: String) throws(CheckFailure) {
        try expect(reply.isNoStore, "\(what) returned a journey URL without Cache-Control: no-store")
    }

    /// The entries of `after` whose `id` (BB: `sessionId`) is not in `before`.
    static func newEntries(_ before: [JSONValue], _ after: [JSONValue]) async throws -> [JSONValue] {
        func id(_ entry: JSONValue) -> String { (entry["id"] ?? entry["sessionId"])?.stringValue ?? "" }
        let known = Set(before.map(id))
        return after.filter { !known.contains(id($0)) }
    }
}
