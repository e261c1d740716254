import BatonCore
import Foundation
import Testing

@testable import BatonCLI

/// `baton verify-backend`'s checks against a working backend (every check passes) and against broken ones (the
/// checks that guard the broken rule fail, and only those).
@Suite("baton verify-backend checks", .serialized)
struct BackendVerifierTests {
    static func failed(_ results: [VerifyCheckResult]) -> Set<String> {
        Set(results.filter { $0.outcome == .failed }.map(\.id))
    }

    @Test func aWorkingBackendPassesEveryCheck() async throws {
        let stack = try await VerifyBackendStack.start()
        let results = await BackendVerifier(options: stack.options()).run()
        await stack.stop()
        for result in results where result.outcome != .passed {
            Issue.record("\(result.id) \(result.outcome.rawValue): \(result.detail)")
        }
        #expect(results.count >= 40)
        // Every contract area the issue lists has at least one check.
        for prefix in [
            "auth.", "chia.catalog", "chia.share.", "privue.", "bb.", "webhooks.", "well-known.", "landing.",
        ] {
            #expect(results.contains { $0.id.hasPrefix(prefix) }, "no check for \(prefix)")
        }
    }

    @Test func aBackendThatForwardsTheAppsKeyFailsTheKeyChecks() async throws {
        let stack = try await VerifyBackendStack.start()
        let broken = try BrokenBackend.start(.forwardsAppKey, in: stack)
        let results = await BackendVerifier(options: stack.options(base: broken.base, flows: [.chia])).run()
        await broken.stop()
        await stack.stop()
        let failed = Self.failed(results)
        #expect(
            failed.isSuperset(of: [
                "chia.share.key-not-forwarded", "chia.share.other-user", "chia.share.no-app-key-upstream",
            ]), "failed: \(failed.sorted())")
        #expect(!failed.contains("auth.missing-token"))
    }

    @Test func aBackendThatDropsNoStoreFailsEveryJourneyURLCheckAndNothingElse() async throws {
        let stack = try await VerifyBackendStack.start()
        let broken = try BrokenBackend.start(.dropsNoStore, in: stack)
        let results = await BackendVerifier(options: stack.options(base: broken.base)).run()
        await broken.stop()
        await stack.stop()
        let failed = Self.failed(results)
        #expect(failed.isSuperset(of: ["chia.share.created", "chia.share.replay", "privue.handoff", "bb.session"]))
        for result in results where result.outcome == .failed {
            #expect(result.detail.contains("no-store"), "\(result.id) failed for another reason: \(result.detail)")
        }
        #expect(!results.contains { $0.outcome == .notRun }, "a missing no-store must not hide the other checks")
    }

    @Test func aBackendThatAcceptsARefusedWebhookFailsTheRefusalChecks() async throws {
        let stack = try await VerifyBackendStack.start()
        let broken = try BrokenBackend.start(.acceptsRefusedWebhooks, in: stack)
        let results = await BackendVerifier(options: stack.options(base: broken.base, flows: [.privue, .bb])).run()
        await broken.stop()
        await stack.stop()
        #expect(
            Self.failed(results) == [
                "webhooks.privue.forged", "webhooks.privue.tampered", "webhooks.privue.unsigned",
                "webhooks.bb.forged", "webhooks.bb.tampered", "webhooks.bb.unsigned",
            ])
    }

    @Test func flowsChiaRunsOnlyChiaChecks() async throws {
        let stack = try await VerifyBackendStack.start()
        let results = await BackendVerifier(options: stack.options(flows: [.chia])).run()
        await stack.stop()
        #expect(
            !results.contains { $0.id.hasPrefix("privue.") || $0.id.hasPrefix("bb.") || $0.id.hasPrefix("webhooks.") })
        #expect(results.contains { $0.id == "chia.share.concurrent-taps" && $0.outcome == .passed })
    }

    @Test func oneFixedUserLeavesTheOtherUserChecksNotRun() async throws {
        // One user sends every request: more creates than a per-user create limit allows (issue 30's is 10).
        let stack = try await VerifyBackendStack.start(rateLimited: false)
        var options = stack.options(flows: [.chia, .bb])
        let token = stack.signer.token(for: "only-user", expiresAt: Date().addingTimeInterval(600))
        options.tokens = .fixed([(user: "only-user", token: token)])
        let results = await BackendVerifier(options: options).run()
        await stack.stop()
        let notRun = Set(results.filter { $0.outcome == .notRun }.map(\.id))
        #expect(notRun == ["chia.share.other-user", "bb.other-user"], "not run: \(notRun.sorted())")
        #expect(Self.failed(results).isEmpty, "failed: \(Self.failed(results).sorted())")
    }

    @Test func noSandboxIsOneFailedCheck() async throws {
        let options = BackendVerifier.Options(
            base: "http://127.0.0.1:9", tokens: .fixed([(user: "u", token: "t")]), sandbox: ["http://127.0.0.1:9"])
        let results = await BackendVerifier(options: options).run()
        #expect(results.map(\.id) == ["sandbox.reachable"])
        #expect(results.first?.outcome == .failed)
    }
}

@Suite("baton verify-backend token sources")
struct TokenSourceTests {
    /// The last base64 character of a signature may hold only padding bits a lenient decoder ignores (a token with
    /// it changed was accepted by a Node backend, 2 runs in 6): the altered token differs in the middle instead.
    @Test(arguments: ["Bearer bt1.eyJhdWQiOiJ4In0.QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVowMTIzNDU2Nzg5", "Bearer a.b.c"])
    func anAlteredTokenDiffersBeforeItsLastCharacter(header: String) {
        let altered = BackendVerifier.altered(header)
        #expect(altered != header)
        #expect(altered.count == header.count)
        #expect(altered.last == header.last || header.count - "Bearer ".count < 3)
    }

    @Test func aCommandGetsTheUserShellQuotedAndItsOutputTrimmed() async throws {
        let token = try await TokenSource.command("printf 'tok-%s\\n' {user}").token(for: "o'brien;exit$(false)")
        #expect(token == "tok-o'brien;exit$(false)")
    }

    @Test func theDevTokenJSONIsReadForItsToken() async throws {
        let token = try await TokenSource.command(#"echo '{"expiresAt":"x","token":"bt1.abc"}' # {user}"#)
            .token(for: "alice")
        #expect(token == "bt1.abc")
    }

    @Test(arguments: ["exit 3 # {user}", "echo 'two words' # {user}", "true # {user}", #"echo '{"t":1}' # {user}"#])
    func aCommandThatGivesNoTokenFails(command: String) async {
        await #expect(throws: CheckFailure.self) { try await TokenSource.command(command).token(for: "alice") }
    }

    @Test(arguments: ["alice", "=tok", "alice=", ""])
    func aFixedTokenMustBeUserEqualsToken(value: String) {
        #expect(throws: UsageError.self) { try TokenSource.fixed(from: [value]) }
    }
}
