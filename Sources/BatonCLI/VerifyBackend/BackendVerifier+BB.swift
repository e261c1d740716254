import BatonCore
import BatonHTTP

extension BackendVerifier {
    func runBB(_ ledger: inout CheckLedger, _ probe: SandboxProbe) async {
        var session: String?
        await ledger.check(
            "bb.session",
            "§2 POST /v2/connect-sessions {callback: https} → {sessionId, hostedUrl, callback}, Cache-Control: "
                + "no-store; one session at BB with the registered https return"
        ) {
            let created = try await createSession(probe, role: "bb", callback: "https")
            session = created.id
            try Self.expectNoStore(created.reply, "the session (with its hosted URL)")
        }
        await ledger.check(
            "bb.session-custom-scheme",
            "§2 POST /v2/connect-sessions {callback: custom-scheme} → a session returning to the custom scheme, or "
                + "422 callback_unavailable"
        ) {
            let created = try await createSession(probe, role: "bb", callback: "custom-scheme")
            // Ended at BB, so it does not count as a pending session of this user on the next run.
            _ = try await probe.complete(.bb, id: created.id, ["resultCode": "Cancelled"])
            try Self.expectNoStore(created.reply, "the session (with its hosted URL)")
        }
        await ledger.check("bb.body-invalid", "§2 problem codes: 400 invalid_request for connect bodies") {
            for body in [["callback": "ftp"], ["callback": "https", "extra": "x"], [:]] as [JSONValue] {
                let reply = try await send(.post, "/v2/connect-sessions", body: body, headers: try await auth("bb"))
                try reply.expectProblem(400, "invalid_request", "a connect body other than {callback}")
            }
        }
        await ledger.check("bb.status-pending", "§2 GET /v2/connect-sessions/{sessionId} → pending before the return") {
            guard let session else { throw CheckNotRun("no session was created") }
            let reply = try await send(.get, "/v2/connect-sessions/" + session, headers: try await auth("bb"))
            try expect(reply.status == 200, "expected 200, got \(reply.summary)")
            try expect(reply.json?["sessionId"]?.stringValue == session, "sessionId is not BB's")
            try expect(reply.json?["status"]?.stringValue == "pending", "a new session is not pending")
        }
        await ledger.check("bb.other-user", "§2 GET /v2/connect-sessions/{sessionId}: 404 for another user's session") {
            guard let session else { throw CheckNotRun("no session was created") }
            let reply = try await send(.get, "/v2/connect-sessions/" + session, headers: try await auth("bb-other"))
            try reply.expectProblem(404, "not_found", "another user's session")
        }
        await ledger.check(
            "bb.confirmation",
            "§2 GET /v2/connect-sessions/{sessionId}: BB's outcome (Ok → ok with BB's connectionId, Error → error, "
                + "Cancelled → cancelled)"
        ) {
            guard let session else { throw CheckNotRun("no session was created") }
            let ok = try await probe.complete(.bb, id: session, ["resultCode": "Ok"])
            let connection = ok["connectionId"]?.stringValue
            try await expectStatus(session, "ok", connection: connection)
            for (code, status) in [("Error", "error"), ("Cancelled", "cancelled")] {
                let other = try await createSession(probe, role: "bb", callback: "https").id
                _ = try await probe.complete(.bb, id: other, ["resultCode": .string(code)])
                try await expectStatus(other, status, connection: nil)
            }
        }
    }

    /// Creates a connect session for `role`'s user and checks it against BB's state; its id and the answer.
    func createSession(
        _ probe: SandboxProbe, role: String, callback: String
    ) async throws -> (id: String, reply: VerifyReply) {
        let before = try await probe.bbSessions()
        let reply = try await send(
            .post, "/v2/connect-sessions", body: ["callback": .string(callback)], headers: try await auth(role))
        if reply.status == 422, callback != "https" {
            try reply.expectProblem(422, "callback_unavailable", "the custom-scheme session")
            throw CheckNotRun("the backend registers no custom-scheme return (422 callback_unavailable)")
        }
        try expect((200..<300).contains(reply.status), "expected 201, got \(reply.summary)")
        guard let id = reply.json?["sessionId"]?.stringValue, reply.json?["hostedUrl"]?.stringValue != nil,
            reply.json?["callback"]?.members != nil
        else { throw CheckFailure("the body is not {sessionId, hostedUrl, callback:{…}}") }
        let created = try await Self.newEntries(before, try await probe.bbSessions())
        try expect(created.count == 1, "expected one new session at BB, found \(created.count)")
        try expect(created[0]["sessionId"]?.stringValue == id, "sessionId is not the session BB created")
        let returnURL = created[0]["returnUrl"]?.stringValue ?? ""
        try expect(
            returnURL.hasPrefix("https://") == (callback == "https"), "BB's session returns to the wrong kind of URL")
        return (id, reply)
    }

    func expectStatus(_ session: String, _ status: String, connection: String?) async throws {
        var last = "nothing"
        let settled = try await eventually("the session to read \(status)") {
            let reply = try await send(.get, "/v2/connect-sessions/" + session, headers: try await auth("bb"))
            last = reply.json?["status"]?.stringValue ?? reply.summary
            return reply.status == 200 && last == status
                && (connection == nil || reply.json?["connectionId"]?.stringValue == connection)
        }
        try expect(settled, "the session reads \(last), not \(status) (with BB's connectionId), within 15 s")
    }
}
