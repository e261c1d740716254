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

    func script(_ completions: [BrowserCompletion]) { self.completions = completions }

    func present(_ url: SensitiveURL, style: BrowserStyle) -> BrowserCompletion {
        presentations.append(Presentation(url: url.revealForPresentation(), style: style))
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
