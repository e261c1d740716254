package baton.client

/**
 * The BB connect flow (seed 002), a pure state machine mirroring BatonClient's `ConnectMachine`, with issue 15's
 * rules: ANY delivery from the browser — an accepted link, a refused link, or "back in the app without a link" —
 * ends the browser phase and asks the backend about the session id the BACKEND returned (a refused link is ignored
 * as data, never as an event); the pending session id (opaque, never the hosted URL) is persisted, so a return that
 * starts the app cold confirms that session even before or without [Event.Restored].
 */
class ConnectMachine(
    /** `https` (app link) or `custom-scheme`: what this device's return URL is. */
    private val callbackKind: String,
    private val returnParser: ConnectReturnParser,
    private val polling: PollingPolicy = PollingPolicy(),
    /** The session id a previous run persisted, if the app was killed while the browser was open. */
    storedPendingSessionId: String? = null
) {
    sealed class Event {
        data class ConnectTapped(val atMillis: Long) : Event()
        data class SessionCreated(val sessionId: String, val hostedUrl: SensitiveUrl, val callbackKind: String) : Event()
        data class SessionCreationFailed(val failure: RequestFailure) : Event()
        /** The browser (or the OS, cold) delivered a link, raw. */
        data class ReturnLink(val url: String, val atMillis: Long) : Event()
        /** Back in the app without a return link (Custom Tabs have no close callback: detected in `onResume`). */
        data class BrowserClosed(val atMillis: Long) : Event()
        data class SessionStateReceived(val sessionId: String, val status: String, val atMillis: Long) : Event()
        data class SessionStateFailed(val failure: RequestFailure, val atMillis: Long) : Event()
        object Backgrounded : Event()
        data class Foregrounded(val atMillis: Long) : Event()
        /** The app restarted; [pendingSessionId] is a session it still had open, if it kept one elsewhere. */
        data class Restored(val pendingSessionId: String?, val atMillis: Long) : Event()
        data class Tick(val atMillis: Long) : Event()
    }

    sealed class Action {
        data class Render(val screen: ConnectScreen) : Action()
        data class CreateSession(val callbackKind: String) : Action()
        /** Open [url] once in a Custom Tab (never a WebView). */
        data class OpenCustomTab(val url: SensitiveUrl) : Action()
        data class FetchSession(val sessionId: String) : Action()
        data class ScheduleTick(val atMillis: Long) : Action()
        /** Persist the opaque session id (never the hosted URL) so a cold-start return can confirm it. */
        data class SavePendingSession(val sessionId: String) : Action()
        object ClearPendingSession : Action()
    }

    private enum class Phase { READY, CREATING, IN_BROWSER, COULD_NOT_START, CONFIRMING, SETTLED }

    private var phase = Phase.READY
    private var sessionId: String? = storedPendingSessionId?.takeIf { it.isNotEmpty() }
    private var shown: ConnectScreen = ConnectScreen("ready")
    private var schedule: PollSchedule? = null

    /** The screen for the current state. */
    val screen: ConnectScreen
        get() = when (phase) {
            Phase.READY -> ConnectScreen("ready")
            Phase.CREATING -> ConnectScreen("starting")
            Phase.IN_BROWSER -> ConnectScreen("in_browser")
            else -> shown
        }

    /** The session the flow waits on (also the persisted one after a cold start), if any. */
    val pendingSessionId: String? get() = if (phase == Phase.SETTLED || phase == Phase.COULD_NOT_START) null else sessionId

    /** Handles [event]; returns the actions to perform, in order. */
    fun handle(event: Event): List<Action> = when (event) {
        is Event.ConnectTapped -> when (phase) {
            Phase.READY, Phase.COULD_NOT_START, Phase.SETTLED -> {
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
                shown = ConnectScreen("could_not_start", failure = RequestFailure.DEFINITIVE)
                listOf(Action.Render(screen))
            }
            else -> {
                phase = Phase.IN_BROWSER
                sessionId = event.sessionId
                listOf(Action.SavePendingSession(event.sessionId), Action.Render(screen), Action.OpenCustomTab(event.hostedUrl))
            }
        }
        is Event.SessionCreationFailed -> if (phase == Phase.CREATING) {
            phase = Phase.COULD_NOT_START
            shown = ConnectScreen("could_not_start", failure = event.failure)
            listOf(Action.Render(screen))
        } else emptyList()
        is Event.ReturnLink -> receiveReturn(event.url, event.atMillis)
        is Event.BrowserClosed -> {
            // In the browser, or cold with a kept session (the app died while the tab was open): closed, confirm.
            val id = sessionId
            if ((phase == Phase.IN_BROWSER || phase == Phase.READY) && id != null) {
                confirm(id, event.atMillis, ConnectScreen("cancelled"))
            } else emptyList()
        }
        is Event.SessionStateReceived -> receiveState(event.sessionId, event.status, event.atMillis)
        is Event.SessionStateFailed -> {
            val current = schedule
            if (phase != Phase.CONFIRMING || current == null) emptyList()
            else if (event.failure != RequestFailure.RETRYABLE) settleUnconfirmed()
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
            val id = event.pendingSessionId?.takeIf { it.isNotEmpty() } ?: sessionId
            if (phase == Phase.READY && id != null) confirm(id, event.atMillis, ConnectScreen("confirming", hint = "resumed"))
            else emptyList()
        }
    }

    private fun receiveReturn(url: String, atMillis: Long): List<Action> {
        val parsed = returnParser.parse(url)
        val accepted = (parsed as? ReturnLinkResult.Accepted)?.value
        val id = sessionId
        return when {
            // A delivery while the browser is open (or into a cold start that kept the session id) ends the browser
            // phase; only the backend's session id is ever asked about. A refused or foreign link is no data.
            (phase == Phase.IN_BROWSER || phase == Phase.READY) && id != null ->
                if (accepted != null && accepted.sessionId == id) {
                    confirm(id, atMillis, ConnectScreen("confirming", hint = hint(accepted.resultCode)))
                } else if (phase == Phase.IN_BROWSER) {
                    confirm(id, atMillis, ConnectScreen("cancelled"))
                } else {
                    confirm(id, atMillis, ConnectScreen("confirming", hint = "resumed"))
                }
            phase == Phase.CONFIRMING && accepted != null && accepted.sessionId == id -> {
                // Already asking (the tab closed first): the redirect only updates what is shown.
                shown = ConnectScreen("confirming", hint = hint(accepted.resultCode))
                listOf(Action.Render(screen))
            }
            else -> emptyList()
        }
    }

    private fun hint(resultCode: String) = when (resultCode) {
        "Ok" -> "ok"
        "Error" -> "error"
        else -> "cancelled"
    }

    private fun receiveState(id: String, status: String, atMillis: Long): List<Action> {
        val current = schedule
        if (phase != Phase.CONFIRMING || current == null || id != sessionId) return emptyList()
        val settled = when (status) {
            "ok" -> "connected"
            "error" -> "failed"
            "cancelled" -> "cancelled"
            "expired" -> "expired"
            else -> null
        } ?: return listOf(Action.ScheduleTick(current.answerArrived(atMillis, polling)))
        phase = Phase.SETTLED
        shown = ConnectScreen(settled)
        return listOf(Action.ClearPendingSession, Action.Render(shown))
    }

    /** Ends polling without a backend answer: a closed tab stays on the cancelled path, a return says "check later". */
    private fun settleUnconfirmed(): List<Action> {
        phase = Phase.SETTLED
        shown = if (shown.content == "cancelled") ConnectScreen("cancelled") else ConnectScreen("check_later")
        return listOf(Action.ClearPendingSession, Action.Render(shown))
    }

    private fun confirm(id: String, atMillis: Long, showing: ConnectScreen): List<Action> {
        phase = Phase.CONFIRMING
        sessionId = id
        shown = showing
        schedule = PollSchedule(atMillis, polling)
        return listOf(Action.Render(showing), Action.FetchSession(id), Action.ScheduleTick(atMillis + polling.timeoutMillis))
    }
}

/** What the BB connect screen shows: [content] is ready, starting, in_browser, could_not_start, confirming, cancelled,
 *  connected, failed, expired or check_later; [hint] is what the redirect claimed (ok, error, cancelled, resumed). */
data class ConnectScreen(val content: String, val hint: String? = null, val failure: RequestFailure? = null)
