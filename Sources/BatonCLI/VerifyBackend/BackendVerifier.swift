import BatonCore
import BatonHTTP
import Foundation

/// Runs the app-facing contract (docs/CONTRACTS.md §2) against a partner backend as black-box checks, reading the
/// provider side from a `baton sandbox` the backend uses as its providers. Each check names the contract row it
/// covers; each can fail.
struct BackendVerifier: Sendable {
    struct Options: Sendable {
        /// The backend's base URL, without a trailing slash.
        var base: String
        var flows: Set<VerifyFlow> = Set(VerifyFlow.allCases)
        var tokens: TokenSource
        /// The sandbox origin(s) (see ``SandboxProbe/discover(_:http:)``).
        var sandbox: [String]
        /// The Privue workflow the backend offers.
        var privueWorkflow = "merchant-onboarding"
        /// Makes this run's user ids unique, so runs against one backend do not share records.
        var runID = String(UUID().uuidString.prefix(8)).lowercased()
    }

    let options: Options
    let http: VerifyHTTP

    init(options: Options, transport: any HTTPTransport = CurlTransport()) {
        var options = options
        while options.base.hasSuffix("/") { options.base.removeLast() }
        self.options = options
        self.http = VerifyHTTP(transport: transport)
    }

    /// The backend URL of `path`.
    func url(_ path: String) -> String { options.base + path }

    /// The user id for `role` (`chia`, `chia-other`, …): a fresh id per role and run with a token command, the given
    /// users with fixed tokens (the first; the second for an `-other` role).
    func user(_ role: String) throws(CheckNotRun) -> String {
        switch options.tokens {
        case .command, .mint: return "verify-\(options.runID)-\(role)"
        case .fixed(let pairs):
            let index = role.hasSuffix("-other") ? 1 : 0
            guard pairs.count > index else { throw CheckNotRun("needs a second --token USER=TOKEN (another user)") }
            return pairs[index].user
        }
    }

    /// `Authorization: Bearer …` for `role`'s user.
    func auth(_ role: String) async throws -> HTTPHeaders {
        ["authorization": "Bearer " + (try await options.tokens.token(for: try user(role)))]
    }

    /// Runs every check of the chosen flows, reporting each result to `report` as it is known.
    func run(report: @escaping @Sendable (VerifyCheckResult) -> Void = { _ in }) async -> [VerifyCheckResult] {
        var ledger = CheckLedger(report: report)
        let probe: SandboxProbe
        do {
            probe = try await SandboxProbe.discover(options.sandbox, http: http)
        } catch {
            await ledger.check("sandbox.reachable", "§4.4 control API: the sandbox the backend uses") {
                throw error
            }
            return ledger.results
        }
        await runAuth(&ledger)
        await runProblems(&ledger)
        if options.flows.contains(.chia) { await runChia(&ledger, probe) }
        if options.flows.contains(.privue) { await runPrivue(&ledger, probe) }
        if options.flows.contains(.bb) { await runBB(&ledger, probe) }
        if !options.flows.isDisjoint(with: [.privue, .bb]) { await runWebhooks(&ledger, probe) }
        await runWellKnown(&ledger, probe)
        return ledger.results
    }
}

/// The results so far; ``check(_:_:_:)`` runs one check and records how it ended.
struct CheckLedger {
    private(set) var results: [VerifyCheckResult] = []
    let report: @Sendable (VerifyCheckResult) -> Void

    init(report: @escaping @Sendable (VerifyCheckResult) -> Void) { self.report = report }

    mutating func check(_ id: String, _ contract: String, _ body: () async throws -> Void) async {
        let result: VerifyCheckResult
        do {
            try await body()
            result = VerifyCheckResult(id: id, contract: contract, outcome: .passed, detail: "")
        } catch let failure as CheckFailure {
            result = VerifyCheckResult(id: id, contract: contract, outcome: .failed, detail: failure.message)
        } catch let notRun as CheckNotRun {
            result = VerifyCheckResult(id: id, contract: contract, outcome: .notRun, detail: notRun.reason)
        } catch {
            result = VerifyCheckResult(id: id, contract: contract, outcome: .failed, detail: "\(type(of: error))")
        }
        results.append(result)
        report(result)
    }
}
