package baton.client

/**
 * The Privue verification flow (seed 001), a pure state machine mirroring BatonClient's `VerificationMachine`, with
 * the same rules: the web view ending itself on a registered return URL ([Event.WebViewReturn]) ends the browser
 * phase and confirms with the backend, with or without a `verification_id`; a link the OS delivers ([Event.ReturnLink])
 * counts when it is a return, or a bare registered return URL (the landing page's link back); a foreground while the
 * journey is pending and no return came asks the backend, one request at a time. The handoff URL is opened unchanged
 * (fragment included) and never kept.
 */
class VerificationMachine(
    val workflow: String,
    private val returnParser: VerificationReturnParser,
    private val polling: PollingPolicy = PollingPolicy()
) {
    sealed class Event {
        data class VerifyTapped(val atMillis: Long) : Event()
        data class HandoffCreated(val url: SensitiveUrl) : Event()
        data class HandoffFailed(val failure: RequestFailure) : Event()
        /** The OS delivered a link to the app, raw. */
        data class ReturnLink(val url: String, val atMillis: Long) : Event()
        /** The camera web view stopped on a registered return URL and closed itself with it, raw. */
        data class WebViewReturn(val url: String, val atMillis: Long) : Event()
        data class BrowserClosed(val atMillis: Long) : Event()
        /** The camera web view could not be opened (no WebView, a URL it refuses): the flow ends on could_not_start. */
        object BrowserFailedToOpen : Event()
        data class StatusReceived(val status: String, val atMillis: Long) : Event()
        data class StatusFailed(val failure: RequestFailure, val atMillis: Long) : Event()
        object Backgrounded : Event()
        data class Foregrounded(val atMillis: Long) : Event()
        data class Restored(val atMillis: Long) : Event()
        data class Tick(val atMillis: Long) : Event()
    }

    sealed class Action {
        data class Render(val screen: VerificationScreen) : Action()
        data class RequestHandoff(val workflow: String) : Action()
        /** Open [url] unchanged in a new camera web view (or Custom Tab) limited to its origin. */
        data class PresentCameraWebView(val url: SensitiveUrl) : Action()
        /** Close the journey's web view (the outcome is being confirmed). */
        object DismissWebView : Action()
        data class FetchStatus(val workflow: String) : Action()
        data class ScheduleTick(val atMillis: Long) : Action()
    }

    private enum class Phase { READY, REQUESTING, IN_JOURNEY, COULD_NOT_START, CONFIRMING, SETTLED, CHECK_LATER }

    private var phase = Phase.READY
    private var failure: RequestFailure? = null
    private var browserFailure: BrowserFailure? = null
    private var hint: String? = null
    private var status: String? = null
    private var schedule: PollSchedule? = null
    private var foregroundCheckInFlight = false

    /** The screen for the current state. */
    val screen: VerificationScreen
        get() = when (phase) {
            Phase.READY -> VerificationScreen.Ready
            Phase.REQUESTING -> VerificationScreen.Opening
            Phase.IN_JOURNEY -> VerificationScreen.InJourney
            Phase.COULD_NOT_START -> VerificationScreen.CouldNotStart(failure, browserFailure)
            Phase.CONFIRMING -> VerificationScreen.Confirming(hint)
            Phase.SETTLED -> VerificationScreen.Settled(status ?: "")
            Phase.CHECK_LATER -> VerificationScreen.CheckLater
        }

    /** Handles [event]; returns the actions to perform, in order. */
    fun handle(event: Event): List<Action> = when (event) {
        is Event.VerifyTapped -> when (phase) {
            Phase.READY, Phase.COULD_NOT_START, Phase.SETTLED, Phase.CHECK_LATER -> {
                phase = Phase.REQUESTING
                failure = null
                browserFailure = null
                listOf(Action.Render(screen), Action.RequestHandoff(workflow))
            }
            else -> emptyList()
        }
        is Event.HandoffCreated -> if (phase == Phase.REQUESTING) {
            // A handoff that arrives when no browser is being opened is never opened later.
            phase = Phase.IN_JOURNEY
            foregroundCheckInFlight = false
            listOf(Action.Render(screen), Action.PresentCameraWebView(event.url))
        } else emptyList()
        is Event.HandoffFailed -> if (phase == Phase.REQUESTING) {
            phase = Phase.COULD_NOT_START
            failure = event.failure
            listOf(Action.Render(screen))
        } else emptyList()
        is Event.ReturnLink -> {
            val parsed = returnParser.parse(event.url)
            when {
                phase != Phase.IN_JOURNEY -> emptyList()
                parsed is ReturnLinkResult.Accepted -> confirm(event.atMillis, parsed.value.statusHint)
                returnParser.isBareReturn(event.url) -> confirm(event.atMillis, null)
                else -> emptyList()
            }
        }
        is Event.WebViewReturn -> {
            val parsed = returnParser.parse(event.url)
            when {
                phase != Phase.IN_JOURNEY -> handle(Event.ReturnLink(event.url, event.atMillis))
                parsed is ReturnLinkResult.Accepted -> confirm(event.atMillis, parsed.value.statusHint)
                // The web view ended on the return path without a usable verification_id: the journey ended anyway.
                else -> confirm(event.atMillis, null)
            }
        }
        is Event.BrowserClosed -> if (phase == Phase.IN_JOURNEY) confirm(event.atMillis, null) else emptyList()
        is Event.BrowserFailedToOpen -> if (phase == Phase.IN_JOURNEY) {
            // Nothing was shown, so nothing can have happened: a typed failure the app shows, and Verify works again.
            phase = Phase.COULD_NOT_START
            failure = null
            browserFailure = BrowserFailure.FAILED_TO_OPEN
            listOf(Action.Render(screen))
        } else emptyList()
        is Event.StatusReceived -> receiveStatus(event.status, event.atMillis)
        is Event.StatusFailed -> {
            val current = schedule
            when {
                phase == Phase.IN_JOURNEY -> {
                    foregroundCheckInFlight = false
                    emptyList()
                }
                phase != Phase.CONFIRMING || current == null -> emptyList()
                event.failure != RequestFailure.RETRYABLE -> {
                    phase = Phase.CHECK_LATER
                    listOf(Action.Render(screen))
                }
                else -> listOf(Action.ScheduleTick(current.answerArrived(event.atMillis, polling)))
            }
        }
        is Event.Tick -> {
            val current = schedule
            if (phase != Phase.CONFIRMING || current == null) emptyList()
            else when (current.tick(event.atMillis)) {
                PollSchedule.TickOutcome.WAIT -> emptyList()
                PollSchedule.TickOutcome.REQUEST -> listOf(Action.FetchStatus(workflow))
                PollSchedule.TickOutcome.TIMED_OUT -> {
                    phase = Phase.CHECK_LATER
                    listOf(Action.Render(screen))
                }
            }
        }
        is Event.Backgrounded -> emptyList()
        is Event.Foregrounded -> when {
            phase == Phase.CHECK_LATER -> confirm(event.atMillis, null)
            // Pending and no return came: ask (the journey may have ended elsewhere), one request at a time.
            phase == Phase.IN_JOURNEY && !foregroundCheckInFlight -> {
                foregroundCheckInFlight = true
                listOf(Action.FetchStatus(workflow))
            }
            else -> emptyList()
        }
        is Event.Restored -> when (phase) {
            Phase.READY, Phase.IN_JOURNEY, Phase.REQUESTING, Phase.CHECK_LATER -> confirm(event.atMillis, null)
            else -> emptyList()
        }
    }

    private fun receiveStatus(received: String, atMillis: Long): List<Action> {
        val settled = received !in IN_PROGRESS
        if (phase == Phase.CHECK_LATER && settled) {
            // A late answer after the deadline is still the truth.
            phase = Phase.SETTLED
            status = received
            return listOf(Action.Render(screen))
        }
        if (phase == Phase.IN_JOURNEY) {
            // The answer to the foreground check: settled ends the journey; anything else leaves it open.
            if (!foregroundCheckInFlight) return emptyList()
            foregroundCheckInFlight = false
            if (!settled) return emptyList()
            phase = Phase.SETTLED
            status = received
            return listOf(Action.DismissWebView, Action.Render(screen))
        }
        val current = schedule
        if (phase != Phase.CONFIRMING || current == null) return emptyList()
        if (settled) {
            phase = Phase.SETTLED
            status = received
            return listOf(Action.Render(screen))
        }
        return listOf(Action.ScheduleTick(current.answerArrived(atMillis, polling)))
    }

    private fun confirm(atMillis: Long, landingHint: String?): List<Action> {
        val wasInJourney = phase == Phase.IN_JOURNEY
        foregroundCheckInFlight = false
        phase = Phase.CONFIRMING
        hint = landingHint
        schedule = PollSchedule(atMillis, polling)
        val actions = mutableListOf<Action>()
        if (wasInJourney) actions += Action.DismissWebView
        actions += listOf(Action.Render(screen), Action.FetchStatus(workflow), Action.ScheduleTick(atMillis + polling.timeoutMillis))
        return actions
    }

    companion object {
        /** Statuses under which the user may still be in the journey (Baton's reading); any other is settled. */
        val IN_PROGRESS = setOf("created", "pending", "opened", "in_progress")
    }
}

/** What the Privue screen shows (Swift's `VerificationScreen`); [wire] is its name in the shared vectors. */
sealed class VerificationScreen(val wire: String) {
    /** The `Verify` action, usable. */
    object Ready : VerificationScreen("ready")

    /** Creating the handoff; the browser opens as soon as it exists. */
    object Opening : VerificationScreen("opening")

    /** The journey is open in the camera web view. */
    object InJourney : VerificationScreen("in_journey")

    /**
     * The handoff could not be created ([failure]), or the camera web view could not be opened ([browserFailure]);
     * `Verify` can be tapped again.
     */
    data class CouldNotStart(val failure: RequestFailure?, val browserFailure: BrowserFailure? = null) : VerificationScreen("could_not_start")

    /** Asking the backend for the outcome; [landingHint] is the redirect's `status` (display only, never proof). */
    data class Confirming(val landingHint: String? = null) : VerificationScreen("confirming")

    /**
     * The backend reports [status], settled: any status but created, pending, opened and in_progress, as the backend
     * spells it (Privue's statuses are not a closed set: approved, rejected, submitted, …).
     */
    data class Settled(val status: String) : VerificationScreen("settled")

    /** The backend did not report a settled status in time: "we'll let you know", never a guess. */
    object CheckLater : VerificationScreen("check_later")

    override fun toString() = wire
}
