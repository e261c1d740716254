import BatonCore
import Foundation

/// Runs a ``VerificationMachine``: it feeds it events and performs its actions, nothing more.
///
/// The handoff is requested only when ``verifyTapped()`` is called and presented as soon as it arrives; the camera
/// web view's completion (a link on the registered path, accepted or refused, or a close) comes back as an event
/// that ends the journey; a link the OS delivers goes through ``returnLink(_:)``. Events are handled without suspending
/// between reading and writing the machine.
public actor VerificationCoordinator: JourneyFlowCoordinating {
    var machine: VerificationMachine
    private let backend: any BackendClient
    private let presenter: any BrowserPresenter
    let clock: any FlowClock
    private let telemetry: any TelemetrySink
    var feed: ScreenFeed<VerificationScreen>
    var tasks = FlowTasks()

    /// The screen to show now.
    public var screen: VerificationScreen { feed.current }
    /// Every screen rendered, in order.
    public nonisolated let screens: AsyncStream<VerificationScreen>

    /// A coordinator for `workflow`, recognising return links registered in `returnParser`; the camera web view
    /// loads pages under `urls` (``URLPolicy/development`` only against the local sandbox).
    public init(
        workflow: String, returnParser: VerificationReturnParser, polling: PollingPolicy = PollingPolicy(),
        backend: any BackendClient, presenter: any BrowserPresenter, clock: any FlowClock = SystemFlowClock(),
        telemetry: any TelemetrySink = DiscardingTelemetrySink(), urls: URLPolicy = .production
    ) {
        machine = VerificationMachine(workflow: workflow, returnParser: returnParser, polling: polling, urls: urls)
        self.backend = backend
        self.presenter = presenter
        self.clock = clock
        self.telemetry = telemetry
        feed = ScreenFeed(showing: machine.screen)
        screens = feed.stream
    }

    /// `Verify` was tapped: creates the handoff now and opens it.
    public func verifyTapped() async { await receiveNow { .verifyTapped(at: $0) } }

    /// The OS delivered `link` to the app, raw: parsed strictly; a bare registered return URL ends the journey too.
    public func returnLink(_ link: String) async { await receiveNow { .returnLink(link, at: $0) } }

    /// The app went to the background.
    public func backgrounded() { receive(.backgrounded) }

    /// The app came to the foreground: while the journey is open and no return came, asks the backend once.
    public func foregrounded() async { await receiveNow { .foregrounded(at: $0) } }

    /// The app restarted into this screen: asks the backend for the current status.
    public func restore() async { await receiveNow { .restored(at: $0) } }

    /// Returns when every request and presentation started so far has finished (timers excluded).
    public func whenIdle() async {
        await awaitWork()
    }

    /// Cancels everything running and ends ``screens``.
    public func stop() { cancelAndFinish() }

    func perform(_ action: VerificationMachine.Action) {
        let (backend, clock, presenter, telemetry) = (backend, clock, presenter, telemetry)
        switch action {
        case .render(let screen):
            feed.show(screen)
        case .requestHandoff(let workflow):
            spawnRequest(
                { () async throws(BackendError) in try await backend.createVerificationHandoff(workflow: workflow) },
                answered: { .handoffCreated($0.url) }, failed: { .handoffFailed($0) })
        case .presentCameraWebView(let url, let policy):
            spawnJourney(
                url, style: .cameraWebView(policy: policy), presenter: presenter, clock: clock, telemetry: telemetry,
                failure: .browserFailed(.verification, .cameraWebView),
                returned: { await self.receive(.webViewReturned($0, at: $1)) },
                closed: { await self.receive(.browserClosed(at: $0)) })
        case .fetchStatus(let workflow):
            spawnRequest(
                { () async throws(BackendError) in try await backend.verification(workflow: workflow) },
                answered: { .statusReceived($0.status, at: await clock.now()) },
                failed: { .statusFailed($0, at: await clock.now()) })
        case .scheduleTick(let date):
            scheduleTick(at: date)
        case .record(let event):
            telemetry.record(event)
        }
    }
}
