import Testing

@testable import BatonClient

/// ``PresentationSlot``, the once-only runner every BatonApple presenter uses, exercised with real tasks.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct PresentationSlotTests {
    /// What a fake presenter saw: the ticket `start` received, and how many times it was torn down.
    @MainActor final class Browser {
        var ticket: PresentationSlot.Ticket?
        var tearDowns = 0
    }

    @Test func cancellingTheCallingTaskEndsAWaitingPresentationAndTearsItDown() async {
        let slot = PresentationSlot()
        let browser = Browser()
        let caller = Task { @MainActor in
            await slot.present(start: { browser.ticket = $0 }, tearDown: { browser.tearDowns += 1 })
        }
        while browser.ticket == nil { await Task.yield() }
        caller.cancel()
        #expect(await caller.value == .cancelled)
        #expect(browser.tearDowns == 1)
        slot.finish(browser.ticket!, with: .closedWithoutReturn)  // the dismissed sheet reports its close late
        #expect(browser.tearDowns == 1 && !slot.isBusy)
    }

    @Test func aFailedStartAndTheHandlerReportingTheSameFailureEndOnce() async {
        let slot = PresentationSlot()
        let browser = Browser()
        let result = await slot.present(
            start: { ticket in
                browser.ticket = ticket
                slot.finish(ticket, with: .failedToOpen)  // start() returned false
                slot.finish(ticket, with: .failed)  // and the completion handler fired too
            }, tearDown: { browser.tearDowns += 1 })
        #expect(result == .failedToOpen && browser.tearDowns == 1)
    }

    @Test func aCompletionFromAnotherThreadEndsThePresentation() async {
        let slot = PresentationSlot()
        let result = await slot.present(
            start: { ticket in
                Task.detached { await slot.finish(ticket, with: .returned("https://app.example/cb?sessionId=s")) }
            }, tearDown: {})
        #expect(result == .returned("https://app.example/cb?sessionId=s"))
    }

    @Test func aSecondPresentationWhileOneIsUnderWayFailsAtOnce() async {
        let slot = PresentationSlot()
        let browser = Browser()
        let first = Task { @MainActor in
            await slot.present(start: { browser.ticket = $0 }, tearDown: { browser.tearDowns += 1 })
        }
        while browser.ticket == nil { await Task.yield() }
        var secondStarted = false
        #expect(await slot.present(start: { _ in secondStarted = true }, tearDown: {}) == .failedToOpen)
        #expect(!secondStarted)
        slot.finish(browser.ticket!, with: .closedWithoutReturn)
        #expect(await first.value == .closedWithoutReturn)
    }

    @Test func anAlreadyCancelledTaskNeverPresents() async {
        let slot = PresentationSlot()
        let caller = Task { @MainActor in
            withUnsafeCurrentTask { $0?.cancel() }
            return await slot.present(start: { _ in Issue.record("presented") }, tearDown: {})
        }
        #expect(await caller.value == .cancelled)
    }
}
