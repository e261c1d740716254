import BatonTestSupport
import Foundation
import Testing

@testable import BatonCore

/// One case of `Conformance/retry-classification.v1.json`.
struct RetryVector: Sendable, CustomTestStringConvertible {
    let id: String
    let outcome: ShareRequestOutcome
    let expected: RetryDecision
    let now: Date

    var testDescription: String { id }

    static func all() throws -> [RetryVector] {
        let now = Date(vector: try VectorFile.document("retry-classification.v1.json")["now"] as! String)
        return try VectorFile.cases("retry-classification.v1.json").map { entry in
            let outcomeObject = entry["outcome"] as! [String: Any]
            let outcome: ShareRequestOutcome
            if let transport = outcomeObject["transport"] as? String {
                outcome = .transportFailure(ShareRequestOutcome.TransportFailure(rawValue: transport)!)
            } else {
                outcome = .response(
                    status: outcomeObject["status"] as! Int, retryAfter: outcomeObject["retryAfter"] as? String)
            }
            let expect = entry["expect"] as! [String: Any]
            let expected: RetryDecision =
                switch expect["decision"] as! String {
                case "retry": .retryKeepingRequest(after: expect["retryAfterSeconds"] as? Int)
                case "refetch_projection": .discardAndRefetchProjection
                case "sign_in_and_retry": .signInAndRetryKeepingRequest
                case "done": .done
                case let other: fatalError("unknown decision \(other)")
                }
            return RetryVector(id: entry["id"] as! String, outcome: outcome, expected: expected, now: now)
        }
    }
}

@Suite struct RetryDecisionTests {
    @Test(arguments: try RetryVector.all())
    func vector(_ vector: RetryVector) {
        #expect(RetryDecision.classify(vector.outcome, now: vector.now) == vector.expected)
    }

    @Test(arguments: ShareRequestOutcome.TransportFailure.allCases)
    func everyTransportFailureKeepsTheRequest(_ failure: ShareRequestOutcome.TransportFailure) {
        #expect(RetryDecision.classify(.transportFailure(failure), now: Date()) == .retryKeepingRequest(after: nil))
    }

    @Test func hugeDelaySecondsDoNotOverflow() {
        #expect(RetryDecision.retryAfterSeconds(String(repeating: "9", count: 40), now: Date()) == Int(Int32.max))
    }
}
