package baton.client

/**
 * Everything the SDK needs from the app, as one value: where the partner backend is, who is signed in and how to get
 * their app token, the return URLs registered with each provider, where to persist, and which URLs count as secure.
 * Build one per signed-in user (docs/CONTRACTS.md §1.3): what the SDK keeps is kept under [userId] only.
 */
data class BatonConfiguration @JvmOverloads constructor(
    /** The partner backend's origin, e.g. `https://partner.example` (loopback http only under [UrlPolicy.DEVELOPMENT]). */
    val backendBaseUrl: String,
    /** The signed-in user's stable id in the app (any string): the SDK's records are kept under it alone. */
    val userId: String,
    /** The user's app token, asked before every call (`null`: signed out). Called off the main thread. */
    val tokenProvider: () -> String?,
    /** BB's registered return URLs (the https app link, and the custom-scheme fallback if registered). */
    val bbReturnUrls: List<String> = emptyList(),
    /** Which BB callback this device asks for: `https` (verified app link) or `custom-scheme`. */
    val bbCallbackKind: String = "https",
    /** Privue's registered https return URL(s). */
    val privueReturnUrls: List<String> = emptyList(),
    /** Chia's generic-return host, only when Chia approved and registered one. */
    val chiaGenericReturnHost: String? = null,
    /** The device's storage the user's share attempts and BB session id survive process death in (Android: `SharedPreferencesBatonStorage`). */
    val storage: BatonStorage = InMemoryBatonStorage(),
    /** Erases the journeys' web data at [BatonClient.signOut] (Android: `WebViewJourneyDataEraser`); `null`: none. */
    val journeyWebData: JourneyWebDataEraser? = null,
    /** [UrlPolicy.DEVELOPMENT] only against `baton serve --sandbox`. */
    val urlPolicy: UrlPolicy = UrlPolicy.PRODUCTION,
    val polling: PollingPolicy = PollingPolicy(),
    /** How requests go out (default `HttpURLConnection`; plug in OkHttp here). */
    val transport: HttpTransport = HttpUrlConnectionTransport(),
    /** Where flows run (Android: `MainLooperRunner`). */
    val runner: FlowRunner = ExecutorFlowRunner()
) {
    override fun toString() = "BatonConfiguration(backend=$backendBaseUrl, urlPolicy=$urlPolicy)"
}

/**
 * The SDK's entry point: build one from a [BatonConfiguration] (it refuses an unusable one with
 * [BatonConfigurationException]), then start one flow object per screen. No framework is required: each flow takes
 * plain calls from the UI and reports screens to a listener on [FlowRunner.main].
 */
class BatonClient @JvmOverloads constructor(val configuration: BatonConfiguration, backend: BackendClient? = null) {
    /** The backend client every flow uses. */
    val backend: BackendClient = backend ?: HttpBackendClient(
        configuration.backendBaseUrl, configuration.tokenProvider, configuration.transport, configuration.urlPolicy
    )

    /** What the SDK keeps for [BatonConfiguration.userId] (never another user's records). */
    val userStore: BatonUserStore = BatonUserStore(configuration.storage, configuration.userId)

    private val flows = java.util.Collections.newSetFromMap(java.util.WeakHashMap<FlowBase, Boolean>())
    @Volatile private var signedOut = false

    /** Whether [signOut] ran: this client starts no more flows (build a new one for the next user). */
    val isSignedOut: Boolean get() = signedOut

    /**
     * The user signs out (or another user takes the device): stops every flow this client started, removes the
     * user's pending share attempts and pending BB session id, drops a return link a cold start kept in memory
     * (`BatonAndroid.takeColdStartLink()` then answers `null`), and erases the journeys' web data (Privue's cookies
     * and web storage) through [BatonConfiguration.journeyWebData]. Call it on the main thread; signing out twice is
     * harmless. Afterwards every flow factory throws [BatonSignedOutException].
     */
    fun signOut() {
        signedOut = true
        val running = synchronized(flows) { flows.toList().also { flows.clear() } }
        for (flow in running) flow.stop()
        userStore.clear()
        PresentationRegistry.shared.discardPendingLink()
        configuration.journeyWebData?.eraseJourneyWebData()
    }

    internal fun adopt(flow: FlowBase) {
        if (signedOut) throw BatonSignedOutException()
        synchronized(flows) { flows.add(flow) }
    }

    /** [BatonConfiguration.bbCallbackKind], read once: any other name than `https` or `custom-scheme` is refused. */
    private val bbCallbackKind: CallbackKind =
        CallbackKind.of(configuration.bbCallbackKind) ?: throw BatonConfigurationException("bb_callback_kind_unknown")

    /**
     * Routes a link the OS delivered to the app (an activity's `onNewIntent`) to its flow by registered URL only:
     * `baton.linkRouter.deliver(url, bankConnect = connect::returnLink, verification = verification::returnLink,
     * chiaGenericReturn = chia::returnLink)`.
     */
    val linkRouter: BatonLinkRouter by lazy {
        registered { BatonLinkRouter(configuration.bbReturnUrls, configuration.privueReturnUrls, configuration.chiaGenericReturnHost) }
    }

    /**
     * Hands a link the OS delivered (an activity's `onCreate`/`onNewIntent` `intent.dataString`) to the flow it
     * belongs to, through [linkRouter]: a BB link to [bankConnect]'s `returnLink`, a Privue link to [verification]'s,
     * both also when the route is a bare landing link ([BatonLinkRouter.Route.landing]: the landing page's "Return to
     * the app", which the flow's machine counts as the end of the browser phase and confirms with the backend);
     * Chia's generic return to [chia], or to [marketplaceHome] when no Chia flow runs. A link whose flow is not running
     * is dropped (that flow asks its backend when it next starts). Returns the route; `flow == null` means the link is
     * not Baton's and the app handles it as its own.
     */
    @JvmOverloads
    fun handleLink(
        url: String,
        bankConnect: BankConnect? = null,
        verification: Verification? = null,
        chia: ChiaHandoff? = null,
        marketplaceHome: (() -> Unit)? = null
    ): BatonLinkRouter.Route = linkRouter.deliver(
        url,
        bankConnect = bankConnect?.let { flow -> { link: String -> flow.returnLink(link) } },
        verification = verification?.let { flow -> { link: String -> flow.returnLink(link) } },
        chiaGenericReturn = { link: String -> if (chia != null) chia.returnLink(link) else marketplaceHome?.invoke() }
    )

    private fun <T> registered(parser: () -> T): T = try {
        parser()
    } catch (e: ReturnUrlRegistrationException) {
        throw BatonConfigurationException(e.code)
    }

    /** Chia's handoff for the card [catalogItemId], opened in [presenter]'s external browser. */
    fun chiaHandoff(catalogItemId: String, presenter: BrowserPresenter, listener: ChiaHandoff.Listener): ChiaHandoff {
        val generic = configuration.chiaGenericReturnHost?.let { registered { GenericReturnParser(it) } }
        return ChiaHandoff(this, ChiaHandoffMachine(catalogItemId, generic), presenter, listener)
    }

    /** Privue's verification for [workflow], in [presenter]'s camera web view. */
    fun verification(workflow: String, presenter: BrowserPresenter, listener: Verification.Listener): Verification {
        val parser = registered { VerificationReturnParser(configuration.privueReturnUrls) }
        return Verification(this, VerificationMachine(workflow, parser, configuration.polling), parser, presenter, listener)
    }

    /** BB's connect flow in [presenter]'s Custom Tab; a session id kept by an earlier process is picked up. */
    fun bankConnect(presenter: BrowserPresenter, listener: BankConnect.Listener): BankConnect {
        val parser = registered { ConnectReturnParser(configuration.bbReturnUrls) }
        val wanted = parser.registered.any { it.isHttps == (bbCallbackKind == CallbackKind.HTTPS) }
        if (!wanted) throw BatonConfigurationException("bb_callback_not_registered")
        val kept = userStore.loadPendingSessionId()
        return BankConnect(this, ConnectMachine(bbCallbackKind, parser, configuration.polling, kept), parser, presenter, listener, kept)
    }
}

/** What every flow shares: the serial main queue, background requests, ticks, and an idle wait for tests. */
abstract class FlowBase(protected val client: BatonClient) {
    protected val runner: FlowRunner = client.configuration.runner
    protected val backend: BackendClient = client.backend
    protected val store: BatonUserStore = client.userStore
    private val lock = Object()
    private var busy = 0
    private val ticks = mutableListOf<Cancellable>()
    @Volatile private var stopped = false

    init {
        client.adopt(this)
    }

    /** Runs [task] on the main queue (tracked). */
    protected fun onMain(task: () -> Unit) = track { done -> runner.main { try { if (!stopped) task() } finally { done() } } }

    /** Runs the blocking [request] in the background, then [answer] with its result on the main queue. */
    protected fun <T> request(request: () -> T, answer: (T?, BackendError?) -> Unit) = track { done ->
        runner.background {
            var value: T? = null
            var error: BackendError? = null
            try {
                value = request()
            } catch (e: BackendException) {
                error = e.error
            } catch (e: RuntimeException) {
                // A transport plugged in by the app that throws something else: no response arrived.
                error = BackendError.Transport(TransportFailure.CONNECT)
            }
            onMain { answer(value, error) }
            done()
        }
    }

    /** Presents [url] in [style]; [ended] runs on the main queue with the completion. */
    protected fun present(presenter: BrowserPresenter, url: SensitiveUrl, style: BrowserStyle, ended: (BrowserCompletion) -> Unit) =
        track { done ->
            var reported = false
            try {
                presenter.present(url, style) { completion ->
                    val first = synchronized(lock) {
                        val was = reported
                        reported = true
                        !was
                    }
                    if (first) {
                        onMain { ended(completion) }
                        done()
                    }
                }
            } catch (e: RuntimeException) {
                // A presenter that throws instead of answering failedToOpen still ends the flow, never a crash.
                synchronized(lock) { reported = true }
                onMain { ended(BrowserCompletion.FailedToOpen) }
                done()
            }
        }

    /** Delivers [tick] at [atMillis] (not tracked: a flow waiting for a timer is idle). */
    protected fun scheduleTick(atMillis: Long, tick: (Long) -> Unit) {
        val handle = runner.schedule(atMillis) { if (!stopped) tick(runner.now()) }
        synchronized(lock) { ticks += handle }
    }

    private fun track(start: (() -> Unit) -> Unit) {
        synchronized(lock) { busy += 1 }
        var finished = false
        start {
            synchronized(lock) {
                if (!finished) {
                    finished = true
                    busy -= 1
                    lock.notifyAll()
                }
            }
        }
    }

    /** Waits until no request, presentation or queued event is outstanding (timers excluded); false on timeout. */
    fun awaitIdle(timeoutMillis: Long): Boolean {
        val deadline = System.currentTimeMillis() + timeoutMillis
        synchronized(lock) {
            while (busy > 0) {
                val left = deadline - System.currentTimeMillis()
                if (left <= 0) return false
                lock.wait(left)
            }
        }
        return true
    }

    /** Cancels every pending tick; later events are ignored. The presented browser is not touched. */
    fun stop() {
        stopped = true
        synchronized(lock) {
            for (tick in ticks) tick.cancel()
            ticks.clear()
        }
    }
}

/**
 * Chia's catalog handoff for one card (seed 000), driving [ChiaHandoffMachine]: the card fetched at tap time, the
 * share sent with the kept key and body, the journey opened once in the external browser, the generic return.
 *
 * Call [start] once (it restores a kept attempt, and fetches nothing until [callToActionTapped]); forward the taps and
 * the activity's foreground/background. [Listener.onScreen] gets every screen.
 */
class ChiaHandoff internal constructor(
    client: BatonClient,
    private val machine: ChiaHandoffMachine,
    private val presenter: BrowserPresenter,
    private val listener: Listener
) : FlowBase(client) {
    interface Listener {
        fun onScreen(screen: ChiaScreen)
        /** The backend answered 401: sign the user in again; the next share tap resends the same key and body. */
        fun onSignInRequired() {}
        /** Chia's generic return arrived: show marketplace home (never a completion status). */
        fun onRouteToMarketplaceHome() {}
        /** The browser could not be opened; the card is fetched again and shown. */
        fun onBrowserFailed(completion: BrowserCompletion) {}
    }

    /** The current screen (read on the main queue). */
    val screen: ChiaScreen get() = machine.screen

    /** Restores a share attempt an earlier process kept, without any request (nothing before the tap). */
    fun start() = onMain {
        val kept = store.loadPendingAttempt(machine.catalogItemId)
        if (kept != null) machine.handle(ChiaHandoffMachine.Event.Restored(kept)).let { perform(it) }
        else listener.onScreen(machine.screen)
    }

    fun callToActionTapped() = send(ChiaHandoffMachine.Event.CallToActionTapped)
    fun shareTapped() = onMain { perform(machine.handle(ChiaHandoffMachine.Event.ShareTapped(runner.now(), IdempotencyKey.random()))) }
    fun continueTapped() = send(ChiaHandoffMachine.Event.ContinueTapped)
    fun foregrounded() = send(ChiaHandoffMachine.Event.Foregrounded)
    fun backgrounded() = send(ChiaHandoffMachine.Event.Backgrounded)
    /** A link the OS delivered (the generic return's activity calls this). */
    fun returnLink(url: String) = send(ChiaHandoffMachine.Event.ReturnLink(url))

    private fun send(event: ChiaHandoffMachine.Event) = onMain { perform(machine.handle(event)) }

    private fun perform(actions: List<ChiaHandoffMachine.Action>) {
        for (action in actions) when (action) {
            is ChiaHandoffMachine.Action.Render -> listener.onScreen(action.screen)
            is ChiaHandoffMachine.Action.FetchProjection -> request({ backend.catalog() }) { cards, error ->
                val event = if (error != null) ChiaHandoffMachine.Event.ProjectionFailed
                else ChiaHandoffMachine.Event.ProjectionLoaded(cards?.firstOrNull { it.id == machine.catalogItemId })
                perform(machine.handle(event))
            }
            is ChiaHandoffMachine.Action.SavePendingAttempt -> store.savePendingAttempt(action.attempt)
            is ChiaHandoffMachine.Action.SendShareRequest -> {
                val attempt = action.attempt
                request({ backend.createHandoffSession(attempt) }) { session, error ->
                    val event = if (session != null) ChiaHandoffMachine.Event.ShareSucceeded(session.url)
                    else ChiaHandoffMachine.Event.ShareFailed((error ?: BackendError.MalformedResponse).shareOutcome, runner.now())
                    perform(machine.handle(event))
                }
            }
            is ChiaHandoffMachine.Action.DiscardPendingAttempt -> store.discardPendingAttempt(machine.catalogItemId)
            is ChiaHandoffMachine.Action.OpenExternalBrowser -> present(presenter, action.url, BrowserStyle.ExternalBrowser) { completion ->
                if (completion == BrowserCompletion.FailedToOpen || completion == BrowserCompletion.Failed) {
                    listener.onBrowserFailed(completion)
                    perform(machine.handle(ChiaHandoffMachine.Event.BrowserFailedToOpen))
                }
            }
            is ChiaHandoffMachine.Action.ScheduleTick -> scheduleTick(action.atMillis) { now ->
                perform(machine.handle(ChiaHandoffMachine.Event.Tick(now)))
            }
            is ChiaHandoffMachine.Action.RouteToMarketplaceHome -> listener.onRouteToMarketplaceHome()
            is ChiaHandoffMachine.Action.RequestSignIn -> listener.onSignInRequired()
        }
    }
}

/**
 * Privue's verification (seed 001), driving [VerificationMachine]: a fresh handoff at tap time, the camera web view,
 * the return it catches, bounded polling, and the foreground check. A browser that cannot open ends the flow on
 * [VerificationScreen.CouldNotStart] with [BrowserFailure.FAILED_TO_OPEN].
 */
class Verification internal constructor(
    client: BatonClient,
    private val machine: VerificationMachine,
    private val parser: VerificationReturnParser,
    private val presenter: BrowserPresenter,
    private val listener: Listener
) : FlowBase(client) {
    interface Listener {
        fun onScreen(screen: VerificationScreen)
    }

    val screen: VerificationScreen get() = machine.screen

    fun verifyTapped() = onMain { perform(machine.handle(VerificationMachine.Event.VerifyTapped(runner.now()))) }
    /** A link the OS delivered to the app (the verified return URL's activity). */
    fun returnLink(url: String) = onMain { perform(machine.handle(VerificationMachine.Event.ReturnLink(url, runner.now()))) }
    fun foregrounded() = onMain { perform(machine.handle(VerificationMachine.Event.Foregrounded(runner.now()))) }
    fun backgrounded() = onMain { perform(machine.handle(VerificationMachine.Event.Backgrounded)) }
    /** After process death: asks the backend once for the outcome of a journey that may have run. */
    fun restored() = onMain { perform(machine.handle(VerificationMachine.Event.Restored(runner.now()))) }

    private fun perform(actions: List<VerificationMachine.Action>) {
        for (action in actions) when (action) {
            is VerificationMachine.Action.Render -> listener.onScreen(action.screen)
            is VerificationMachine.Action.RequestHandoff -> request({ backend.createVerificationHandoff(action.workflow) }) { handoff, error ->
                perform(machine.handle(
                    if (handoff != null) VerificationMachine.Event.HandoffCreated(handoff.url)
                    else VerificationMachine.Event.HandoffFailed((error ?: BackendError.MalformedResponse).failure)
                ))
            }
            is VerificationMachine.Action.PresentCameraWebView -> {
                val style = BrowserStyle.CameraWebView(parser.registered, client.configuration.urlPolicy)
                present(presenter, action.url, style) { completion ->
                    val now = runner.now()
                    perform(machine.handle(when (completion) {
                        is BrowserCompletion.Returned -> VerificationMachine.Event.WebViewReturn(completion.link, now)
                        is BrowserCompletion.FailedToOpen -> VerificationMachine.Event.BrowserFailedToOpen
                        else -> VerificationMachine.Event.BrowserClosed(now)
                    }))
                }
            }
            is VerificationMachine.Action.DismissWebView -> (presenter as? Dismissible)?.dismiss()
            is VerificationMachine.Action.FetchStatus -> request({ backend.verification(action.workflow) }) { state, error ->
                val now = runner.now()
                perform(machine.handle(
                    if (state != null) VerificationMachine.Event.StatusReceived(state.status, now)
                    else VerificationMachine.Event.StatusFailed((error ?: BackendError.MalformedResponse).failure, now)
                ))
            }
            is VerificationMachine.Action.ScheduleTick -> scheduleTick(action.atMillis) { now ->
                perform(machine.handle(VerificationMachine.Event.Tick(now)))
            }
        }
    }
}

/** A presenter that can close what it shows when the flow settles without it (Privue's foreground check). */
interface Dismissible {
    fun dismiss()
}

/**
 * BB's connect flow (seed 002), driving [ConnectMachine]: the session created at tap time, the hosted URL opened once
 * in a Custom Tab, the return caught by the library's redirect activity (or "back without a link" as closed), the
 * backend's confirmation, and the cold start (a kept session id confirmed when the app restarts).
 */
class BankConnect internal constructor(
    client: BatonClient,
    private val machine: ConnectMachine,
    private val parser: ConnectReturnParser,
    private val presenter: BrowserPresenter,
    private val listener: Listener,
    private val keptSessionId: String?
) : FlowBase(client) {
    interface Listener {
        fun onScreen(screen: ConnectScreen)
    }

    val screen: ConnectScreen get() = machine.screen

    /**
     * Call once when the screen is created. [coldStartLink] is the return link that started the process, if any (the
     * library's redirect activity hands it over): with a kept session it is the tab's delivery; without a link a kept
     * session is confirmed with the backend.
     */
    @JvmOverloads
    fun start(coldStartLink: String? = null) = onMain {
        val event = CustomTabReturnTracker.coldStart(coldStartLink, keptSessionId, runner.now())
        if (event != null) perform(machine.handle(event)) else listener.onScreen(machine.screen)
    }

    fun connectTapped() = onMain { perform(machine.handle(ConnectMachine.Event.ConnectTapped(runner.now()))) }
    /** A link the OS delivered while no tab was open (an app link from elsewhere). */
    fun returnLink(url: String) = onMain { perform(machine.handle(ConnectMachine.Event.ReturnLink(url, runner.now()))) }

    private fun perform(actions: List<ConnectMachine.Action>) {
        for (action in actions) when (action) {
            is ConnectMachine.Action.Render -> listener.onScreen(action.screen)
            is ConnectMachine.Action.CreateSession -> request({ backend.createConnectSession(action.callbackKind) }) { session, error ->
                perform(machine.handle(
                    if (session != null) ConnectMachine.Event.SessionCreated(session.sessionId, session.hostedUrl, session.callbackKind)
                    else ConnectMachine.Event.SessionCreationFailed((error ?: BackendError.MalformedResponse).failure)
                ))
            }
            is ConnectMachine.Action.OpenCustomTab -> present(presenter, action.url, BrowserStyle.CustomTab(parser.registered)) { completion ->
                val now = runner.now()
                perform(machine.handle(when (completion) {
                    is BrowserCompletion.Returned -> ConnectMachine.Event.BrowserReturn(completion.link, now)
                    is BrowserCompletion.FailedToOpen -> ConnectMachine.Event.BrowserFailedToOpen
                    else -> ConnectMachine.Event.BrowserClosed(now)
                }))
            }
            is ConnectMachine.Action.FetchSession -> request({ backend.connectSession(action.sessionId) }) { state, error ->
                val now = runner.now()
                perform(machine.handle(
                    if (state != null) ConnectMachine.Event.SessionStateReceived(state.sessionId, state.status, now)
                    else ConnectMachine.Event.SessionStateFailed((error ?: BackendError.MalformedResponse).failure, now)
                ))
            }
            is ConnectMachine.Action.ScheduleTick -> scheduleTick(action.atMillis) { now ->
                perform(machine.handle(ConnectMachine.Event.Tick(now)))
            }
            is ConnectMachine.Action.KeepPendingSession -> store.savePendingSessionId(action.sessionId)
            is ConnectMachine.Action.ForgetPendingSession -> store.clearPendingSessionId()
        }
    }
}
