/// The end of one presentation, delivered to the waiting caller exactly once whichever of its possible ends comes
/// first: the browser's completion handler, a start that failed, a presentation UIKit refused, a dismissal, or the
/// calling task's cancellation — in any order, any number of times.
///
/// A presentation goes `reserve()` → `begin(_:continuation:)` → `finish(_:with:)`. Every end carries the
/// ``Ticket`` of the presentation it belongs to, so a late end of an earlier presentation (a completion handler that
/// fires after `start()` already reported failure, a cancellation that raced a return) can never end a later one.
/// An end that arrives before `begin` (the task was cancelled while the presenter was still setting up) is kept and
/// delivered the moment the caller begins waiting.
///
/// The type is not copyable: a copy would hold the same continuation and could resume it a second time.
public struct OnceOnlyCompletion<Value: Sendable>: ~Copyable {
    /// One presentation's claim on the completion.
    public struct Ticket: Sendable, Hashable {
        let number: Int
    }

    private enum State {
        case idle
        case reserved(Ticket)
        case waiting(Ticket, CheckedContinuation<Value, Never>)
        case endedEarly(Ticket, Value)
    }

    private var state: State = .idle
    private var issued = 0

    /// An idle completion: no presentation under way.
    public init() {}

    /// Whether a presentation is under way (reserved, waiting, or ended and not yet collected).
    public var isBusy: Bool {
        if case .idle = state { return false }
        return true
    }

    /// Claims the completion for a new presentation; `nil` while another one is under way.
    public mutating func reserve() -> Ticket? {
        guard case .idle = state else { return nil }
        issued += 1
        let ticket = Ticket(number: issued)
        state = .reserved(ticket)
        return ticket
    }

    /// The caller starts waiting on `continuation` for the presentation `ticket`.
    ///
    /// Returns `true` when the presenter should go on and present; `false` when that presentation already ended
    /// (the continuation has been resumed with its end, and nothing must be shown). A ticket that is not the
    /// reserved one is a programming error.
    public mutating func begin(_ ticket: Ticket, continuation: CheckedContinuation<Value, Never>) -> Bool {
        switch state {
        case .reserved(let reserved) where reserved == ticket:
            state = .waiting(ticket, continuation)
            return true
        case .endedEarly(let ended, let value) where ended == ticket:
            state = .idle
            continuation.resume(returning: value)
            return false
        default:
            preconditionFailure("begin(_:continuation:) with a ticket that was not reserved")
        }
    }

    /// Ends the presentation `ticket` with `value`.
    ///
    /// Returns `true` only for the call that ended it (the caller tears the browser down then); every later or
    /// stale call returns `false` and changes nothing.
    @discardableResult
    public mutating func finish(_ ticket: Ticket, with value: Value) -> Bool {
        switch state {
        case .waiting(let waiting, let continuation) where waiting == ticket:
            state = .idle
            continuation.resume(returning: value)
            return true
        case .reserved(let reserved) where reserved == ticket:
            state = .endedEarly(ticket, value)
            return true
        default:
            return false
        }
    }
}
