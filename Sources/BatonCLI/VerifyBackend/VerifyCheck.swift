import BatonCore

/// The provider flows a partner backend may implement; `baton verify-backend --flows` picks which are checked.
enum VerifyFlow: String, Sendable, CaseIterable {
    case chia, privue, bb
}

/// One black-box check's outcome: passed, failed (with what was seen), or not run (with why).
struct VerifyCheckResult: Sendable, Equatable {
    enum Outcome: String, Sendable {
        case passed, failed
        case notRun = "not_run"
    }

    /// A stable id such as `chia.share.replay`.
    let id: String
    /// The docs/CONTRACTS.md row the check covers, in words (`§2 share idempotency: same key, same body, finished`).
    let contract: String
    let outcome: Outcome
    /// What was seen when it failed, or why it did not run; empty when it passed. Never a token or journey URL.
    let detail: String

    var json: JSONValue {
        [
            "id": .string(id), "contract": .string(contract), "outcome": .string(outcome.rawValue),
            "detail": .string(detail),
        ]
    }
}

/// Why a check failed: a sentence naming what was expected and what came back (never a token or a journey URL).
struct CheckFailure: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Why a check could not run (a prerequisite the backend or the options did not give).
struct CheckNotRun: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Fails the current check with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(CheckFailure) {
    if !condition { throw CheckFailure(message()) }
}
