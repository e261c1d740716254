import Testing

@testable import BatonClient

/// A presentation's end reaches its caller exactly once, whatever order the ends arrive in.
///
/// Each case drives one ``OnceOnlyCompletion`` through a script of ends inside the continuation's body (as a
/// presenter does when `start()` fails and the completion handler also fires), then checks what the caller got and
/// which calls reported that they ended it. A second resumption would trap the checked continuation.
@Suite struct OnceOnlyCompletionTests {
    enum End: String, Sendable, CustomTestStringConvertible {
        case returned, closed, startFailed, cancelled
        var testDescription: String { rawValue }
    }

    struct Ordering: Sendable, CustomTestStringConvertible {
        let name: String
        /// Ends delivered before the caller begins waiting (the task was cancelled during setup).
        let early: [End]
        /// Ends delivered once the caller waits.
        let late: [End]
        let expected: End
        var testDescription: String { name }
    }

    static let orderings: [Ordering] = [
        Ordering(name: "completion only", early: [], late: [.returned], expected: .returned),
        Ordering(
            name: "start failure, then the handler reports it", early: [], late: [.startFailed, .closed],
            expected: .startFailed),
        Ordering(
            name: "handler inside start(), then start() returns false", early: [], late: [.closed, .startFailed],
            expected: .closed),
        Ordering(name: "completion twice", early: [], late: [.returned, .returned], expected: .returned),
        Ordering(name: "never completes: cancellation ends it", early: [], late: [.cancelled], expected: .cancelled),
        Ordering(
            name: "return, then a late cancellation", early: [], late: [.returned, .cancelled], expected: .returned),
        Ordering(name: "cancelled before waiting", early: [.cancelled], late: [.closed], expected: .cancelled),
    ]

    @Test(arguments: orderings)
    func endsExactlyOnce(ordering: Ordering) async {
        var once = OnceOnlyCompletion<End>()
        let ticket = once.reserve()!
        var enders: [Bool] = ordering.early.map { once.finish(ticket, with: $0) }
        let result = await withCheckedContinuation { continuation in
            let presents = once.begin(ticket, continuation: continuation)
            #expect(presents == ordering.early.isEmpty, "nothing is shown once the presentation already ended")
            enders += ordering.late.map { once.finish(ticket, with: $0) }
        }
        #expect(result == ordering.expected)
        #expect(enders.filter { $0 }.count == 1, "exactly one end tears the browser down")
        #expect(enders.first == true)
        let busy = once.isBusy
        #expect(!busy)
    }

    @Test func aSecondPresentationWaitsForTheFirstAndStaleEndsNeverReachIt() async {
        var once = OnceOnlyCompletion<End>()
        let first = once.reserve()!
        let again = once.reserve()
        #expect(again == nil, "busy while the first is under way")
        let firstResult = await withCheckedContinuation { continuation in
            _ = once.begin(first, continuation: continuation)
            once.finish(first, with: .closed)
        }
        let second = once.reserve()!
        #expect(second != first)
        let secondResult = await withCheckedContinuation { continuation in
            _ = once.begin(second, continuation: continuation)
            let stale = once.finish(first, with: .startFailed)
            let current = once.finish(second, with: .returned)
            #expect(!stale, "a late end of the first presentation is ignored")
            #expect(current)
        }
        #expect(firstResult == .closed && secondResult == .returned)
    }
}
