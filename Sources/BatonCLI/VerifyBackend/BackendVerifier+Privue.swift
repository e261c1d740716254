import BatonCore
import BatonHTTP

extension BackendVerifier {
    func runPrivue(_ ledger: inout CheckLedger, _ probe: SandboxProbe) async {
        let workflow = options.privueWorkflow
        var verification: JSONValue?
        var firstURL: String?
        await ledger.check(
            "privue.handoff",
            "§2 POST /v2/verification-handoffs → {url, expiresInSeconds}, Cache-Control: no-store; the verification "
                + "and a fresh single-use handoff at Privue"
        ) {
            let before = try await probe.privueVerifications()
            let reply = try await send(
                .post, "/v2/verification-handoffs", body: ["workflow": .string(workflow)],
                headers: try await auth("privue"))
            firstURL = try Self.verificationURL(reply, "the handoff")
            let after = try await probe.privueVerifications()
            let created = try await Self.newEntries(before, after)
            try expect(created.count == 1, "expected one new verification at Privue, found \(created.count)")
            verification = created[0]
            try expect(created[0]["workflow"]?.stringValue == workflow, "Privue's verification is for another workflow")
            try expect(created[0]["handoffs"]?.arrayValue?.count == 1, "expected one handoff at Privue")
            try Self.expectNoStore(reply, "the handoff")
        }
        await ledger.check(
            "privue.handoff-fresh",
            "§2 POST /v2/verification-handoffs: creates the verification if needed, then a fresh handoff; nothing cached"
        ) {
            guard let id = verification?["id"]?.stringValue else {
                throw CheckNotRun("the first handoff did not succeed")
            }
            let before = try await probe.privueVerifications()
            let reply = try await send(
                .post, "/v2/verification-handoffs", body: ["workflow": .string(workflow)],
                headers: try await auth("privue"))
            try expect(
                try Self.verificationURL(reply, "the second handoff") != firstURL, "the second handoff reused the URL")
            let after = try await probe.privueVerifications()
            try expect(try await Self.newEntries(before, after).isEmpty, "a second verification was created at Privue")
            let handoffs = after.first { $0["id"]?.stringValue == id }?["handoffs"]?.arrayValue?.count
            try expect(handoffs == 2, "expected a second handoff at Privue, found \(handoffs ?? 0) in all")
            try Self.expectNoStore(reply, "the second handoff")
        }
        await ledger.check("privue.unknown-workflow", "§2 problem codes: 404 unknown_workflow") {
            let reply = try await send(
                .post, "/v2/verification-handoffs", body: ["workflow": "no-such-workflow"],
                headers: try await auth("privue"))
            try reply.expectProblem(404, "unknown_workflow", "an unknown workflow")
        }
        await ledger.check("privue.body-invalid", "§2 problem codes: 400 invalid_request for verification bodies") {
            for body in [["workflow": .string(workflow), "extra": "x"], ["flow": .string(workflow)]] as [JSONValue] {
                let reply = try await send(
                    .post, "/v2/verification-handoffs", body: body, headers: try await auth("privue"))
                try reply.expectProblem(400, "invalid_request", "a verification body with other members")
            }
        }
        await ledger.check(
            "privue.status",
            "§2 GET /v2/verifications/{workflow} → {verificationId, status}, authoritative: follows Privue to approved"
        ) {
            guard let id = verification?["id"]?.stringValue else {
                throw CheckNotRun("the first handoff did not succeed")
            }
            let path = "/v2/verifications/" + workflow
            let pending = try await send(.get, path, headers: try await auth("privue"))
            try expect(pending.status == 200, "expected 200, got \(pending.summary)")
            try expect(pending.json?["verificationId"]?.stringValue == id, "verificationId is not Privue's id")
            try expect(
                ["pending", "in_progress"].contains(pending.json?["status"]?.stringValue ?? ""),
                "a new verification reads as \(pending.json?["status"]?.stringValue ?? "nothing")")
            _ = try await probe.complete(.privue, id: id, ["status": "approved"])
            let settled = try await eventually("the status to read approved") {
                let reply = try await send(.get, path, headers: try await auth("privue"))
                return reply.status == 200 && reply.json?["status"]?.stringValue == "approved"
            }
            try expect(settled, "the backend did not report approved within 15 s of Privue's approval")
        }
    }

    /// The `url` of a verification handoff's `{"url","expiresInSeconds"}`.
    static func verificationURL(_ reply: VerifyReply, _ what: String) throws -> String {
        try expect((200..<300).contains(reply.status), "\(what): expected 2xx, got \(reply.summary)")
        guard let url = reply.json?["url"]?.stringValue, reply.json?["expiresInSeconds"]?.intValue != nil else {
            throw CheckFailure("\(what): the body is not {\"url\",\"expiresInSeconds\"}")
        }
        return url
    }

    /// Asks `condition` every 200 ms until it holds or `seconds` pass; whether it held.
    func eventually(_ what: String, seconds: Double = 15, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return try await condition()
    }
}
