import BatonCore
import BatonHTTP
import Foundation

extension BackendVerifier {
    /// Webhooks the sandbox signs (delivered through a local relay the kit starts), replayed, forged and tampered.
    func runWebhooks(_ ledger: inout CheckLedger, _ probe: SandboxProbe) async {
        let relay: WebhookRelay
        do {
            relay = try WebhookRelay.start(forwardingTo: options.base, http: http)
        } catch {
            await ledger.check("webhooks.relay", "§2 POST /webhooks/…: the kit's local relay") {
                throw CheckFailure("cannot listen on 127.0.0.1 for the sandbox's webhooks")
            }
            return
        }
        for flow in [VerifyFlow.privue, .bb] where options.flows.contains(flow) {
            await runWebhooks(&ledger, probe, relay, flow)
        }
        await relay.stop()
    }

    private func runWebhooks(
        _ ledger: inout CheckLedger, _ probe: SandboxProbe, _ relay: WebhookRelay, _ flow: VerifyFlow
    ) async {
        let provider = flow.rawValue
        let route = "POST /webhooks/\(provider)"
        var signed: WebhookRelay.Delivery?
        await ledger.check(
            "webhooks.\(provider).signed",
            "§2 \(route): a delivery the sandbox signs (Standard Webhooks) is verified, stored, then 2xx"
        ) {
            let previous = try await probe.webhooks(flow).target
            try await probe.setWebhookTarget(flow, relay.target(provider))
            do {
                signed = try await raiseEvent(probe, relay, flow)
                try await probe.setWebhookTarget(flow, previous)
            } catch {
                try? await probe.setWebhookTarget(flow, previous)
                throw error
            }
            guard let signed else { throw CheckFailure("no webhook reached the relay within 15 s") }
            try expect(
                (200..<300).contains(signed.backendStatus), "the signed delivery was answered \(signed.backendStatus)")
        }
        func delivery() throws -> WebhookRelay.Delivery {
            guard let signed else { throw CheckNotRun("no signed delivery was captured") }
            return signed
        }
        await ledger.check(
            "webhooks.\(provider).replayed", "§2 \(route): a redelivery (same webhook-id) is deduped, 2xx"
        ) {
            let signed = try delivery()
            let reply = try await http.send(
                .post, WebhookRelay.receiver(options.base, provider), headers: signed.headers, body: signed.body)
            try expect((200..<300).contains(reply.status), "the redelivery was answered \(reply.summary)")
        }
        await ledger.check(
            "webhooks.\(provider).forged", "§2 \(route) + §4.5: a wrong signature → 401 webhook_rejected"
        ) {
            let signed = try delivery()
            var headers = signed.headers
            let forged = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            headers.set("webhook-signature", "v1," + forged)
            headers.set("webhook-id", "msg_forged" + Self.newKey().prefix(8))
            let reply = try await http.send(
                .post, WebhookRelay.receiver(options.base, provider), headers: headers, body: signed.body)
            try reply.expectProblem(401, "webhook_rejected", "a forged signature")
        }
        await ledger.check(
            "webhooks.\(provider).tampered",
            "§2 \(route) + §4.5: the signed headers with another body → 401 webhook_rejected"
        ) {
            let signed = try delivery()
            var body = signed.body
            // Change one byte inside the JSON (a space added before the closing brace keeps it valid JSON).
            body.insert(UInt8(ascii: " "), at: body.count - 1)
            let reply = try await http.send(
                .post, WebhookRelay.receiver(options.base, provider), headers: signed.headers, body: body)
            try reply.expectProblem(401, "webhook_rejected", "a tampered body")
        }
        await ledger.check(
            "webhooks.\(provider).unsigned",
            "§2 problem codes: a delivery without Standard Webhooks headers → 400 webhook_malformed or 401"
        ) {
            let signed = try delivery()
            let reply = try await http.send(
                .post, WebhookRelay.receiver(options.base, provider), headers: ["content-type": "application/json"],
                body: signed.body)
            try reply.expectProblem([400, 401], nil, "an unsigned delivery")
            try expect(
                ["webhook_malformed", "webhook_rejected"].contains(reply.json?["code"]?.stringValue ?? ""),
                "an unsigned delivery: expected webhook_malformed or webhook_rejected, got \(reply.summary)")
        }
    }

    /// Starts a journey through the backend and completes it at the sandbox, which raises a webhook; the first
    /// delivery of it the relay saw.
    private func raiseEvent(
        _ probe: SandboxProbe, _ relay: WebhookRelay, _ flow: VerifyFlow
    ) async throws -> WebhookRelay.Delivery? {
        let seen = await relay.deliveries().count
        switch flow {
        case .privue:
            let before = try await probe.privueVerifications()
            let reply = try await send(
                .post, "/v2/verification-handoffs", body: ["workflow": .string(options.privueWorkflow)],
                headers: try await auth("hooks"))
            _ = try Self.verificationURL(reply, "the handoff")
            let created = try await Self.newEntries(before, try await probe.privueVerifications())
            guard let id = created.first?["id"]?.stringValue else {
                throw CheckFailure("no verification was created at Privue")
            }
            _ = try await probe.complete(.privue, id: id, ["status": "approved"])
        case .bb:
            let id = try await createSession(probe, role: "hooks", callback: "https").id
            _ = try await probe.complete(.bb, id: id, ["resultCode": "Ok"])
        case .chia:
            return nil
        }
        var found: WebhookRelay.Delivery?
        _ = try await eventually("a webhook at the relay") {
            found = await relay.deliveries().dropFirst(seen).first { $0.provider == flow.rawValue }
            return found != nil
        }
        return found
    }
}
