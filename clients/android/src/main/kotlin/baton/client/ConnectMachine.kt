package baton.client

/**
 * The BB connect flow (seed 002), a pure state machine mirroring BatonClient's `ConnectMachine`:
 *
 * - whatever the browser delivers while it is open ([Event.BrowserReturn]: an accepted link, a refused one) or "back
 *   in the app without a link" ([Event.BrowserClosed], detected in `onResume`) ends the browser phase, and the
 *   backend is asked about the session id the BACKEND returned; a refused link is ignored as data, never as an event;
 * - a link the OS delivers otherwise ([Event.ReturnLink]) is checked in AppAuth's order (registered URL and strict
 *   parameters, a pending flow, the ids agree); the one refused link that still counts is a bare registered return
 *   URL (no query: the landing page's link back);
 * - the pending session id (opaque, never the hosted URL) is kept ([Action.KeepPendingSession]) so a return that
 *   starts the app cold confirms that session before, or without, [Event.Restored]. Android only: because the Custom
 *   Tab outlives the app's process, a link delivered into a cold start that kept a session is the tab's delivery
 *   ([Event.BrowserReturn]) and confirms that session whatever it says.
 */
class ConnectMachine(
    /** What this device's return URL is: the verified app link or the custom scheme. */
    private val callbackKind: CallbackKind,
    private val returnParser: ConnectReturnParser,
    private val polling: PollingPolicy = PollingPolicy(),
    /** The session id a previous run kept, when the app died before the session settled. */
    storedPendingSessionId: String? = null
) {
    sealed class Event {
        data class ConnectTapped(val atMillis: Long) : Event()
        data class SessionCreated(val sessionId: String, val hostedUrl: SensitiveUrl, val callbackKind: CallbackKind) : Event()
        data class SessionCreationFailed(val failure: RequestFailure) : Event()
        /** The OS delivered a link to the app (app link or custom scheme), raw, while no browser delivery was due. */
        data class ReturnLink(val url: String, val atMillis: Long) : Event()
        /** The browser delivered a link (an intent while the Custom Tab was open, or into a cold start), raw. */
        data class BrowserReturn(val url: String, val atMillis: Long) : Event()
        /** Back in the app without a return link (Custom Tabs have no close callback: detected in `onResume`). */
        data class BrowserClosed(val atMillis: Long) : Event()
        /** The Custom Tab could not be opened (no browser, no activity): the flow ends on could_not_start. */
        object BrowserFailedToOpen : Event()
        data class SessionStateReceived(val sessionId: String, val status: ConnectSessionStatus, val atMillis: Long) : Event()
        data class SessionStateFailed(val failure: RequestFailure, val atMillis: Long) : Event()
        object Backgrounded : Event()
        data class Foregrounded(val atMillis: Long) : Event()
        /** The app restarted; [pendingSessionId] is a session it kept elsewhere (else the one given at construction). */
        data class Restored(val pendingSessionId: String?, val atMillis: Long) : Event()
        data class Tick(val atMillis: Long) : Event()
    }

    sealed class Action {
        data class Render(val screen: ConnectScreen) : Action()
        data class CreateSession(val callbackKind: CallbackKind) : Action()
        /** Open [url] once in a Custom Tab (never a WebView). */
        data class OpenCustomTab(val url: SensitiveUrl) : Action()
        data class FetchSession(val sessionId: String) : Action()
        data class ScheduleTick(val atMillis: Long) : Action()
        /** Keep the opaque session id durably (never the hosted URL) so a cold start can confirm it. */
        data class KeepPendingSession(val sessionId: String) : Action()
        /** The session is settled: forget the kept id. */
        object ForgetPendingSession : Action()
    }

    private enum class Phase { READY, RESUMABLE, CREATING, IN_BROWSER, COULD_NOT_START, CONFIRMING, SETTLED }

    private var phase = if (storedPendingSessionId.isNullOrEmpty()) Phase.READY else Phase.RESUMABLE
    private var sessionId: String? = storedPendingSessionId?.takeIf { it.isNotEmpty() }
    private var shown: ConnectScreen = ConnectScreen.Ready
    private var schedule: PollSchedule? = null

    /** The screen for the current state. */
    val screen: ConnectScreen
        get() = when (phase) {
            Phase.READY, Phase.RESUMABLE -> ConnectScreen.Ready
            Phase.CREATING -> ConnectScreen.Starting
            Phase.IN_BROWSER -> ConnectScreen.InBrowser
            else -> shown
        }

    /** The session the flow waits on or kept, if any. */
    val pendingSessionId: String?
        get() = when (phase) {
            Phase.IN_BROWSER, Phase.CONFIRMING, Phase.RESUMABLE -> sessionId
            else -> null
        }

    /** Handles [event]; returns the actions to perform, in order. */
    fun handle(event: Event): List<Action> = when (event) {
        is Event.ConnectTapped -> when (phase) {
            Phase.READY, Phase.RESUMABLE, Phase.COULD_NOT_START, Phase.SETTLED -> {
                phase = Phase.CREATING
                sessionId = null
                listOf(Action.Render(screen), Action.CreateSession(callbackKind))
            }
            else -> emptyList()
        }
        is Event.SessionCreated -> when {
            phase != Phase.CREATING -> emptyList()
            event.callbackKind != callbackKind -> {
                phase = Phase.COULD_NOT_START
                shown = ConnectScreen.CouldNotStart(RequestFailure.DEFINITIVE)
                listOf(Action.Render(screen))
            }
            else -> {
                phase = Phase.IN_BROWSER
                sessionId = event.sessionId
                listOf(Action.KeepPendingSession(event.sessionId), Action.Render(screen), Action.OpenCustomTab(event.hostedUrl))
            }
        }
        is Event.SessionCreationFailed -> if (phase == Phase.CREATING) {
            phase = Phase.COULD_NOT_START
            shown = ConnectScreen.CouldNotStart(event.failure)
            listOf(Action.Render(screen))
        } else emptyList()
        is Event.ReturnLink -> receiveOsReturn(event.url, event.atMillis)
        is Event.BrowserReturn -> receiveBrowserDelivery(event.url, event.atMillis)
        is Event.BrowserClosed -> {
            val id = sessionId
            if (phase == Phase.IN_BROWSER && id != null) confirm(id, event.atMillis, ConnectScreen.Cancelled) else emptyList()
        }
        is Event.BrowserFailedToOpen -> if (phase == Phase.IN_BROWSER) {
            // Nothing was shown: the session is never confirmed; a typed failure the app shows, Connect works again.
            phase = Phase.COULD_NOT_START
            shown = ConnectScreen.CouldNotStart(null, BrowserFailure.FAILED_TO_OPEN)
            listOf(Action.ForgetPendingSession, Action.Render(screen))
        } else emptyList()
        is Event.SessionStateReceived -> receiveState(event.sessionId, event.status, event.atMillis)
        is Event.SessionStateFailed -> {
            val current = schedule
            if (phase != Phase.CONFIRMING || current == null) emptyList()
            else if (event.failure != RequestFailure.RETRYABLE) listOf(Action.ForgetPendingSession) + settleUnconfirmed()
            else listOf(Action.ScheduleTick(current.answerArrived(event.atMillis, polling)))
        }
        is Event.Tick -> {
            val current = schedule
            val id = sessionId
            if (phase != Phase.CONFIRMING || current == null || id == null) emptyList()
            else when (current.tick(event.atMillis)) {
                PollSchedule.TickOutcome.WAIT -> emptyList()
                PollSchedule.TickOutcome.REQUEST -> listOf(Action.FetchSession(id))
                PollSchedule.TickOutcome.TIMED_OUT -> settleUnconfirmed()
            }
        }
        is Event.Backgrounded, is Event.Foregrounded -> emptyList()
        is Event.Restored -> {
            val given = event.pendingSessionId?.takeIf { it.isNotEmpty() }
            val id = when (phase) {
                Phase.READY -> given
                Phase.RESUMABLE -> given ?: sessionId
                else -> null
            }
            if (id != null) confirm(id, event.atMillis, ConnectScreen.Confirming(ConnectReturnHint.RESUMED)) else emptyList()
        }
    }

    /** The browser's own delivery: it ends the browser phase; the link only chooses the hint, when it names our session. */
    private fun receiveBrowserDelivery(url: String, atMillis: Long): List<Action> {
        val id = sessionId
        if ((phase != Phase.IN_BROWSER && phase != Phase.RESUMABLE) || id == null) return receiveOsReturn(url, atMillis)
        val accepted = (returnParser.parse(url) as? ReturnLinkResult.Accepted)?.value
        val hint = if (accepted != null && accepted.sessionId == id) hint(accepted.resultCode) else ConnectReturnHint.UNKNOWN
        return confirm(id, atMillis, ConnectScreen.Confirming(hint))
    }

    /** A link the OS delivered: AppAuth order; a bare registered return URL is the one refused link that counts. */
    private fun receiveOsReturn(url: String, atMillis: Long): List<Action> {
        val pendingId = pendingSessionId
        val parsed = returnParser.parse(url)
        if (parsed is ReturnLinkResult.Rejected) {
            if (pendingId == null || phase == Phase.CONFIRMING || !returnParser.isBareReturn(url)) return emptyList()
            return confirm(pendingId, atMillis, ConnectScreen.Confirming(ConnectReturnHint.UNKNOWN))
        }
        val value = (parsed as ReturnLinkResult.Accepted).value
        if (pendingId == null || value.sessionId != pendingId) return emptyList()
        if (phase == Phase.CONFIRMING) {
            // Already asking (the tab closed first): the redirect only updates what is shown.
            shown = ConnectScreen.Confirming(hint(value.resultCode))
            return listOf(Action.Render(screen))
        }
        return confirm(pendingId, atMillis, ConnectScreen.Confirming(hint(value.resultCode)))
    }

    private fun hint(resultCode: ConnectResultCode) = when (resultCode) {
        ConnectResultCode.OK -> ConnectReturnHint.OK
        ConnectResultCode.ERROR -> ConnectReturnHint.ERROR
        ConnectResultCode.CANCELLED -> ConnectReturnHint.CANCELLED
    }

    private fun receiveState(id: String, status: ConnectSessionStatus, atMillis: Long): List<Action> {
        val current = schedule
        if (phase != Phase.CONFIRMING || current == null || id != sessionId) return emptyList()
        val settled = when (status) {
            ConnectSessionStatus.OK -> ConnectScreen.Connected
            ConnectSessionStatus.ERROR -> ConnectScreen.Failed
            ConnectSessionStatus.CANCELLED -> ConnectScreen.Cancelled
            ConnectSessionStatus.EXPIRED -> ConnectScreen.Expired
            ConnectSessionStatus.PENDING -> return listOf(Action.ScheduleTick(current.answerArrived(atMillis, polling)))
        }
        phase = Phase.SETTLED
        shown = settled
        return listOf(Action.ForgetPendingSession, Action.Render(shown))
    }

    /** Ends polling without an answer: a closed tab stays on the cancelled path, a return says "check later". The id
     *  stays kept, so a later restore asks again. */
    private fun settleUnconfirmed(): List<Action> {
        phase = Phase.SETTLED
        shown = if (shown == ConnectScreen.Cancelled) ConnectScreen.Cancelled else ConnectScreen.CheckLater
        return listOf(Action.Render(shown))
    }

    private fun confirm(id: String, atMillis: Long, showing: ConnectScreen): List<Action> {
        phase = Phase.CONFIRMING
        sessionId = id
        shown = showing
        schedule = PollSchedule(atMillis, polling)
        return listOf(Action.Render(showing), Action.FetchSession(id), Action.ScheduleTick(atMillis + polling.timeoutMillis))
    }
}

/** What the BB connect screen shows (Swift's `ConnectScreen`); [wire] is its name in the shared vectors. */
sealed class ConnectScreen(val wire: String) {
    /** The `Connect` action, usable. */
    object Ready : ConnectScreen("ready")

    /** Creating the connect session. */
    object Starting : ConnectScreen("starting")

    /** The Custom Tab is open. */
    object InBrowser : ConnectScreen("in_browser")

    /**
     * The session could not be created ([failure]; definitive also when not for a callback this device catches), or
     * the Custom Tab could not be opened ([browserFailure]); `Connect` can be tapped again.
     */
    data class CouldNotStart(val failure: RequestFailure?, val browserFailure: BrowserFailure? = null) : ConnectScreen("could_not_start")

    /** A return arrived ([hint]: what it claimed); asking the backend for the real outcome. */
    data class Confirming(val hint: ConnectReturnHint) : ConnectScreen("confirming")

    /** Closed without a return: the cancelled path, while the backend is still asked. */
    object Cancelled : ConnectScreen("cancelled")

    /** The backend confirmed a connection. */
    object Connected : ConnectScreen("connected")

    /** The backend reports the flow failed. */
    object Failed : ConnectScreen("failed")

    /** The backend reports the session expired unfinished. */
    object Expired : ConnectScreen("expired")

    /** The backend did not settle in time: "check later", never a guess. */
    object CheckLater : ConnectScreen("check_later")

    override fun toString() = wire
}

/**
 * What the redirect claimed (a UX signal only): its `resultCode` Ok/Error/Cancelled, [RESUMED] (no redirect: the app
 * restarted with a session pending) or [UNKNOWN] (a delivery the app cannot use; the backend is asked all the same).
 */
enum class ConnectReturnHint(val wire: String) { OK("ok"), ERROR("error"), CANCELLED("cancelled"), RESUMED("resumed"), UNKNOWN("unknown") }
