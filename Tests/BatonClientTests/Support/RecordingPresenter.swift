import BatonCore

@testable import BatonClient

/// A ``BrowserPresenter`` that records what it was asked to open and answers from a script.
actor RecordingPresenter: BrowserPresenter {
    struct Presentation: Hashable {
        /// The URL exactly as revealed to the browser.
        let url: String
        let style: BrowserStyle
    }

    private(set) var presentations: [Presentation] = []
    var completions: [BrowserCompletion] = []

    private var gate: [CheckedContinuation<Void, Never>]?
    private var presentationWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    func script(_ completions: [BrowserCompletion]) { self.completions = completions }

    /// Keeps every browser open (``present(_:style:)`` does not return) until ``release()``.
    func hold() { gate = [] }

    /// Lets every held browser finish.
    func release() {
        let held = gate ?? []
        gate = nil
        for continuation in held { continuation.resume() }
    }

    /// Returns once `count` presentations have started.
    func waitForPresentations(_ count: Int) async {
        guard presentations.count < count else { return }
        await withCheckedContinuation { presentationWaiters.append((count, $0)) }
    }

    func present(_ url: SensitiveURL, style: BrowserStyle) async -> BrowserCompletion {
        presentations.append(Presentation(url: url.revealForPresentation(), style: style))
        let ready = presentationWaiters.filter { $0.count <= presentations.count }
        presentationWaiters.removeAll { $0.count <= presentations.count }
        for waiter in ready { waiter.continuation.resume() }
        if gate != nil { await withCheckedContinuation { gate?.append($0) } }
        if completions.isEmpty { return style == .externalBrowser ? .handedToSystem : .closedWithoutReturn }
        return completions.removeFirst()
    }
}

/// A ``TelemetrySink`` whose events are read back once the test is done.
struct RecordingTelemetry: TelemetrySink {
    private let stream: AsyncStream<TelemetryEvent>
    private let continuation: AsyncStream<TelemetryEvent>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream() }

    func record(_ event: TelemetryEvent) { continuation.yield(event) }

    /// Ends recording and returns every event recorded.
    func drain() async -> [TelemetryEvent] {
        continuation.finish()
        var events: [TelemetryEvent] = []
        for await event in stream { events.append(event) }
        return events
    }
}
