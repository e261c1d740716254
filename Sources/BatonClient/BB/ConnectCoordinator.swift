import BatonCore
import Foundation

/// Runs a ``ConnectMachine``: it feeds it events and performs its actions, nothing more.
///
/// The authentication session's completion comes back as an event: a link it caught (accepted or not) or a close
/// both end the browser phase. A link the OS delivers to the app goes through ``returnLink(_:)`` and the strict
/// checks (registered URL, pending session, same id). The pending session id is written to the
/// ``PendingSessionStore``, if one is given, so a cold launch can pass it back. Events are handled without
/// suspending between reading and writing the machine.
public actor ConnectCoordinator: JourneyFlowCoordinating {
    var machine: ConnectMachine
    private let backend: any BackendClient
    private let presenter: any BrowserPresenter
    let clock: any FlowClock
    private let telemetry: any TelemetrySink
    private let sessionStore: (any PendingSessionStore)?
    private var writes = WriteChain()
    var feed: ScreenFeed<ConnectScreen>
    var tasks = FlowTasks()

    /// The screen to show now.
    public var screen: ConnectScreen { feed.current }
    /// Every screen rendered, in order.
    public nonisolated let screens: AsyncStream<ConnectScreen>

    /// A coordinator for a device catching `callback` (see ``ConnectCallback/supported(https:customScheme:deviceSupportsHTTPSCallback:)``).
    ///
    /// - Parameters:
    ///   - pendingSessionID: the session id `sessionStore` held at launch (`try await store.load()`), if any: a
    ///     return link delivered right after a cold launch confirms it, before or without ``restore(pendingSessionID:)``.
    ///   - sessionStore: where the pending session id is kept while a flow waits on it; `nil` keeps it in memory only.
    public init(
        callback: ConnectCallback, returnParser: ConnectReturnParser, polling: PollingPolicy = PollingPolicy(),
        backend: any BackendClient, presenter: any BrowserPresenter, clock: any FlowClock = SystemFlowClock(),
        telemetry: any TelemetrySink = DiscardingTelemetrySink(), pendingSessionID: String? = nil,
        sessionStore: (any PendingSessionStore)? = nil
    ) {
        machine = ConnectMachine(
            callback: callback, returnParser: returnParser, polling: polling, pendingSessionID: pendingSessionID)
        self.sessionStore = sessionStore
        self.backend = backend
        self.presenter = presenter
        self.clock = clock
        self.telemetry = telemetry
        feed = ScreenFeed(showing: machine.screen)
        screens = feed.stream
    }

    /// The session the flow waits on, if any; an app may keep it to pass to ``restore(pendingSessionID:)``.
    public var pendingSessionID: String? { machine.pendingSessionID }

    /// `Connect` was tapped.
    public func connectTapped() async { await receiveNow { .connectTapped(at: $0) } }

    /// The OS delivered `link` to the app, raw: checked strictly (registered URL, a pending session, the same id); a
    /// bare registered return URL (the landing page's link) ends the browser phase too.
    public func returnLink(_ link: String) async { await receiveNow { .returnLink(link, at: $0) } }

    /// The app went to the background.
    public func backgrounded() { receive(.backgrounded) }

    /// The app came to the foreground.
    public func foregrounded() async { await receiveNow { .foregrounded(at: $0) } }

    /// The app restarted; asks the backend about `pendingSessionID` when the app kept one (or, when `nil`, about the
    /// session given at creation).
    public func restore(pendingSessionID: String?) async {
        await receiveNow { .restored(pendingSessionID: pendingSessionID, at: $0) }
    }

    /// Returns when every request and presentation started so far has finished (timers excluded).
    public func whenIdle() async {
        await awaitWork()
        await writes.last?.value
    }

    /// Cancels everything running and ends ``screens``.
    public func stop() { cancelAndFinish() }

    func perform(_ action: ConnectMachine.Action) {
        let (backend, clock, presenter, telemetry) = (backend, clock, presenter, telemetry)
        switch action {
        case .render(let screen):
            feed.show(screen)
        case .createSession(let kind):
            spawnRequest(
                { () async throws(BackendError) in try await backend.createConnectSession(callback: kind) },
                answered: { .sessionCreated($0) }, failed: { .sessionCreationFailed($0) })
        case .presentAuthenticationSession(let url, let callback):
            spawnJourney(
                url, style: .authenticationSession(callback: callback), presenter: presenter, clock: clock,
                telemetry: telemetry, failure: .browserFailed(.connect, .authenticationSession),
                returned: { await self.receive(.sheetReturned($0, at: $1)) },
                closed: { await self.receive(.browserClosed(at: $0)) })
        case .fetchSession(let id):
            spawnRequest(
                { () async throws(BackendError) in try await backend.connectSession(id: id) },
                answered: { .sessionStateReceived($0, at: await clock.now()) },
                failed: { .sessionStateFailed($0, at: await clock.now()) })
        case .scheduleTick(let date):
            scheduleTick(at: date)
        case .keepPendingSession(let id):
            guard let store = sessionStore else { return }
            writes.append { try? await store.save(id) }
        case .forgetPendingSession:
            guard let store = sessionStore else { return }
            writes.append { try? await store.remove() }
        case .record(let event):
            telemetry.record(event)
        }
    }
}
