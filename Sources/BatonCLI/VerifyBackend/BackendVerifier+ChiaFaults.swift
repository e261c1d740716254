import BatonCore
import BatonHTTP

extension BackendVerifier {
    /// Provider faults injected at the sandbox: a retryable answer the app's retry turns into one journey, and a
    /// definitive refusal recorded and replayed without calling Chia again.
    func runChiaFaults(
        _ ledger: inout CheckLedger, _ probe: SandboxProbe, target: ShareTarget?, appKeys: inout [String]
    ) async {
        let endpoint = "POST /v2/handoff-sessions"
        for (status, codes) in [(503, [502, 503]), (429, [429])] {
            await ledger.check(
                "chia.share.provider-\(status)",
                "§2 share idempotency: provider \(status) → \(codes.map(String.init).joined(separator: "/")) with "
                    + "Retry-After, nothing final recorded; the retry with the same key and body → one journey"
            ) {
                guard let target else { throw CheckNotRun("the catalog offered no share_or_neutral item") }
                let key = Self.newKey()
                appKeys.append(key)
                let body = Self.shareBody(target.item, target.version)
                let headers = try await shareHeaders("chia-faults", key)
                let before = try await probe.chiaSessions()
                try await probe.injectStatus(.chia, endpoint: endpoint, status: status)
                let failed: VerifyReply
                do {
                    failed = try await send(.post, "/v2/handoff-sessions", body: body, headers: headers)
                    try await probe.clearFaults(.chia)
                } catch {
                    try? await probe.clearFaults(.chia)
                    throw error
                }
                try failed.expectProblem(Set(codes), nil, "the share while Chia answers \(status)")
                try expect(failed.retryAfter != nil, "the \(failed.status) answer has no Retry-After")
                let retried = try await send(.post, "/v2/handoff-sessions", body: body, headers: headers)
                try expect(retried.status == 201, "the retry after the fault: expected 201, got \(retried.summary)")
                _ = try Self.journeyURL(retried, "the retry")
                let created = try await Self.newEntries(before, try await probe.chiaSessions())
                try expect(created.count == 1, "the fault and its retry made \(created.count) journeys at Chia")
                try Self.expectNoStore(retried, "the retry")
            }
        }
        await ledger.check(
            "chia.share.definitive-refusal",
            "§2 share idempotency: provider definitive 4xx → recorded and replayed for that key as a 4xx, Chia not "
                + "called again"
        ) {
            guard let target else { throw CheckNotRun("the catalog offered no share_or_neutral item") }
            let key = Self.newKey()
            appKeys.append(key)
            let body = Self.shareBody(target.item, target.version)
            let headers = try await shareHeaders("chia-faults", key)
            let calls = try await probe.requests(.chia).count
            try await probe.injectStatus(.chia, endpoint: endpoint, status: 400)
            let refused: VerifyReply
            do {
                refused = try await send(.post, "/v2/handoff-sessions", body: body, headers: headers)
                try await probe.clearFaults(.chia)
            } catch {
                try? await probe.clearFaults(.chia)
                throw error
            }
            try expect(
                (400..<500).contains(refused.status) && ![408, 429].contains(refused.status),
                "Chia's 400: expected a definitive 4xx, got \(refused.summary)")
            try refused.expectProblem([refused.status], nil, "the refusal")
            let replay = try await send(.post, "/v2/handoff-sessions", body: body, headers: headers)
            try replay.expectProblem([refused.status], nil, "the replay of the refusal")
            let shares = try await probe.requests(.chia).dropFirst(calls).filter {
                $0["method"]?.stringValue == "POST" && $0["path"]?.stringValue == "/v2/handoff-sessions"
            }
            try expect(shares.count == 1, "the refusal and its replay called Chia \(shares.count) times, not once")
        }
    }
}
