import BatonCore
import Foundation

/// Runs a ``ChiaHandoffMachine`` for one catalog card: it feeds it events and performs its actions, nothing more.
///
/// Each public method reads what it needs (the time, a fresh key, the stored attempt) first, then hands one event to
/// the machine and performs the returned actions without suspending in between; requests and the browser run in
/// tasks whose results come back as events. Store writes run one after another, and the share request waits for the
/// attempt to be saved before it is sent.
public actor ChiaHandoffCoordinator: FlowTaskRunning {
    private var machine: ChiaHandoffMachine
    private let backend: any BackendClient
    private let store: any PendingAttemptStore
    private let presenter: any BrowserPresenter
    private let clock: any FlowClock
    private let telemetry: any TelemetrySink
    private let makeKey: @Sendable () -> IdempotencyKey
    private let onMarketplaceHome: @Sendable () -> Void
    private let onSignInRequired: @Sendable () -> Void
    private var feed: ScreenFeed<ChiaScreen>
    private var writes = WriteChain()
    var tasks = FlowTasks()

    /// The screen to show now.
    public var screen: ChiaScreen { feed.current }
    /// Every screen rendered, in order.
    public nonisolated let screens: AsyncStream<ChiaScreen>

    /// A coordinator for `catalogItemID`.
    ///
    /// - Parameters:
    ///   - genericReturn: the approved generic return link's parser, or `nil` when none is registered.
    ///   - makeKey: fresh `Idempotency-Key`s (inject a seeded generator in tests only).
    ///   - onMarketplaceHome: called when the generic return routes to marketplace home.
    ///   - onSignInRequired: called when the backend answered a share with 401: sign the user in again (so the
    ///     backend client's token provider has a fresh token); the next share tap resends the same body and key.
    public init(
        catalogItemID: String, genericReturn: GenericReturnParser?, backend: any BackendClient,
        store: any PendingAttemptStore, presenter: any BrowserPresenter, clock: any FlowClock = SystemFlowClock(),
        telemetry: any TelemetrySink = DiscardingTelemetrySink(),
        makeKey: @escaping @Sendable () -> IdempotencyKey = { IdempotencyKey.random() },
        onMarketplaceHome: @escaping @Sendable () -> Void = {},
        onSignInRequired: @escaping @Sendable () -> Void = {}
    ) {
        machine = ChiaHandoffMachine(catalogItemID: catalogItemID, genericReturn: genericReturn)
        self.backend = backend
        self.store = store
        self.presenter = presenter
        self.clock = clock
        self.telemetry = telemetry
        self.makeKey = makeKey
        self.onMarketplaceHome = onMarketplaceHome
        self.onSignInRequired = onSignInRequired
        feed = ScreenFeed(showing: machine.screen)
        screens = feed.stream
    }

    /// The card's call to action was tapped.
    public func callToActionTapped() { receive(.callToActionTapped) }

    /// `Share selection and continue` was tapped.
    public func shareTapped() async {
        let now = await clock.now()
        receive(.shareTapped(at: now, freshKey: makeKey()))
    }

    /// `Continue to Chia` or `Continue without sharing` was tapped.
    public func continueTapped() { receive(.continueTapped) }

    /// The OS delivered `link` to the app (a universal link), raw.
    public func returnLink(_ link: String) { receive(.returnLink(link)) }

    /// The app went to the background.
    public func backgrounded() { receive(.backgrounded) }

    /// The app came to the foreground.
    public func foregrounded() { receive(.foregrounded) }

    /// The app restarted into this card's screen: restores the pending attempt, if any, and refreshes.
    public func restore() async {
        let attempt = try? await store.load(catalogItemID: machine.catalogItemID)
        receive(.restored(attempt))
    }

    /// Returns when every request and presentation started so far has finished (timers excluded).
    public func whenIdle() async {
        await awaitWork()
        await writes.last?.value
    }

    /// Cancels everything running and ends ``screens``.
    public func stop() {
        tasks.cancelAll()
        feed.finish()
    }

    private func receive(_ event: ChiaHandoffMachine.Event) {
        for action in machine.handle(event) { perform(action) }
    }

    private func perform(_ action: ChiaHandoffMachine.Action) {
        switch action {
        case .render(let screen):
            feed.show(screen)
        case .fetchProjection:
            let (backend, id) = (backend, machine.catalogItemID)
            spawn {
                do {
                    let cards = try await backend.catalog()
                    await self.receive(.projectionLoaded(cards.first { $0.id == id }))
                } catch {
                    await self.receive(.projectionFailed)
                }
            }
        case .savePendingAttempt(let attempt):
            let store = store
            writes.append { try? await store.save(attempt) }
        case .discardPendingAttempt:
            let (store, id) = (store, machine.catalogItemID)
            writes.append { try? await store.remove(catalogItemID: id) }
        case .sendShareRequest(let attempt):
            let (backend, clock, saved) = (backend, clock, writes.last)
            spawn {
                await saved?.value
                do throws(BackendError) {
                    let session = try await backend.createHandoffSession(attempt)
                    await self.receive(.shareSucceeded(session.url))
                } catch {
                    await self.receive(.shareFailed(error.shareRequestOutcome, at: await clock.now()))
                }
            }
        case .openExternalBrowser(let url):
            let presenter = presenter
            spawn {
                if await presenter.present(url, style: .externalBrowser) == .failedToOpen {
                    await self.receive(.browserFailedToOpen)
                }
            }
        case .scheduleTick(let date):
            spawnTick(at: date, clock: clock) { await self.receive(.tick($0)) }
        case .routeToMarketplaceHome:
            onMarketplaceHome()
        case .requestSignIn:
            onSignInRequired()
        case .record(let event):
            telemetry.record(event)
        }
    }
}
