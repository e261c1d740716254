/// One browser presentation at a time, ended exactly once: what every BatonApple presenter runs its Apple call in.
///
/// ``present(start:tearDown:)`` reserves the slot, suspends the caller, and calls `start` with the presentation's
/// ticket; whoever sees the end — the browser's completion handler, a refused or failed start, a dismissal — calls
/// ``finish(_:with:)`` with that ticket. The first end resumes the caller and runs `tearDown` once (cancel the
/// session, dismiss the web view); every later or stale end is ignored (``OnceOnlyCompletion``). Cancelling the
/// calling task ends the presentation with ``BrowserCompletion/cancelled`` and tears it down. While one
/// presentation is under way, another answers ``BrowserCompletion/failedToOpen`` at once.
@MainActor
public final class PresentationSlot {
    /// A presentation's claim on the slot, passed to every end.
    public typealias Ticket = OnceOnlyCompletion<BrowserCompletion>.Ticket

    private var completion = OnceOnlyCompletion<BrowserCompletion>()
    private var tearDown: (@MainActor () -> Void)?

    /// An empty slot.
    public init() {}

    /// Whether a presentation is under way.
    public var isBusy: Bool { completion.isBusy }

    /// Runs one presentation: `start` shows the browser (and may end it at once by calling ``finish(_:with:)``);
    /// returns the first end reported for it.
    public func present(
        start: (Ticket) -> Void, tearDown: @escaping @MainActor () -> Void
    ) async -> BrowserCompletion {
        if Task.isCancelled { return .cancelled }
        guard let ticket = completion.reserve() else { return .failedToOpen }
        self.tearDown = tearDown
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if completion.begin(ticket, continuation: continuation) { start(ticket) }
            }
        } onCancel: {
            Task { @MainActor in self.finish(ticket, with: .cancelled) }
        }
    }

    /// Ends the presentation `ticket` with `value`, if it has not ended yet; tears it down then.
    public func finish(_ ticket: Ticket, with value: BrowserCompletion) {
        guard completion.finish(ticket, with: value) else { return }
        let tearDown = self.tearDown
        self.tearDown = nil
        tearDown?()
    }
}
