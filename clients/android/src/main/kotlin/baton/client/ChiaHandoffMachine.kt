package baton.client

/** What the Chia handoff screen shows, and which actions can be used now (Swift's `ChiaScreen`). */
data class ChiaScreen(
    val content: Content,
    /** The card, when a handoff is shown. */
    val card: CatalogCard? = null,
    val shareEnabled: Boolean = false,
    val continueEnabled: Boolean = false,
    val notice: Notice? = null
) {
    /** The action labels rendered, in order. */
    val actionLabels: List<String> get() = card?.handoff?.actionLabels ?: emptyList()

    /** The screen's content; [wire] is its name in the shared vectors. */
    enum class Content(val wire: String) {
        /** Only the catalog card with its call to action; nothing fetched yet. */
        CARD("card"),
        /** Fetching a fresh projection; no action. */
        LOADING("loading"),
        /** The item is not in the user's catalog: nothing renders. */
        HIDDEN("hidden"),
        /** The projection could not be fetched: fail safe, no action. */
        UNAVAILABLE("unavailable"),
        /** The just-in-time handoff, `mode` neutral_only. */
        NEUTRAL_ONLY("neutral_only"),
        /** The just-in-time handoff, `mode` share_or_neutral. */
        SHARE_OR_NEUTRAL("share_or_neutral");

        companion object {
            /** The content that shows [handoff]. */
            fun of(handoff: MobileHandoff): Content = if (handoff is MobileHandoff.NeutralOnly) NEUTRAL_ONLY else SHARE_OR_NEUTRAL
        }
    }

    /** A notice shown with the handoff; in each, sharing again resends the same request. [wire]: the vectors' name. */
    enum class Notice(val wire: String) {
        /** A share request's outcome is unknown. */
        SHARE_UNCERTAIN("share_uncertain"),
        /** As [SHARE_UNCERTAIN], and the backend asked to wait; a share tap joins the retry. */
        SHARE_RETRY_LATER("share_retry_later"),
        /** The backend no longer accepts the app's sign-in (401): sign in again. */
        SIGN_IN_REQUIRED("sign_in_required")
    }
}

/**
 * The Chia handoff for one catalog card (seed 000 "Tap sequence"), a pure state machine mirroring BatonClient's
 * `ChiaHandoffMachine`. No I/O, clock or randomness: time and a fresh key arrive in events, effects leave as [Action]s.
 *
 * - nothing is requested before the tap; the call to action fetches a fresh projection, rendered as is;
 * - the first share tap disables both actions before the request; further taps join it (one request, one navigation);
 * - body and key are persisted before the first send and reused unchanged after a network error, 408, 429, 5xx, an
 *   app restart, and after a 401 (the app is asked to sign the user in again; the next share tap resends them); a
 *   definitive rejection discards them and refetches the projection;
 * - during a `Retry-After` wait "Continue without sharing" stays usable, and a share tap joins the pending retry,
 *   which is sent (same key, same body) when the wait ends;
 * - the journey URL appears only in [Action.OpenExternalBrowser], once; nothing is inferred from focus or a return.
 */
class ChiaHandoffMachine(val catalogItemId: String, private val genericReturn: GenericReturnParser?) {
    sealed class Event {
        object CallToActionTapped : Event()
        data class ProjectionLoaded(val card: CatalogCard?) : Event()
        object ProjectionFailed : Event()
        data class ShareTapped(val atMillis: Long, val freshKey: IdempotencyKey) : Event()
        object ContinueTapped : Event()
        data class ShareSucceeded(val url: SensitiveUrl) : Event()
        data class ShareFailed(val outcome: ShareOutcome, val atMillis: Long) : Event()
        object BrowserFailedToOpen : Event()
        data class ReturnLink(val url: String) : Event()
        object Backgrounded : Event()
        object Foregrounded : Event()
        /** The app restarted into this card's screen with the attempt its store held, if any. */
        data class Restored(val attempt: PendingAttempt?) : Event()
        data class Tick(val atMillis: Long) : Event()
    }

    sealed class Action {
        data class Render(val screen: ChiaScreen) : Action()
        object FetchProjection : Action()
        data class SavePendingAttempt(val attempt: PendingAttempt) : Action()
        data class SendShareRequest(val attempt: PendingAttempt) : Action()
        object DiscardPendingAttempt : Action()
        data class OpenExternalBrowser(val url: SensitiveUrl) : Action()
        data class ScheduleTick(val atMillis: Long) : Action()
        object RouteToMarketplaceHome : Action()
        /** The backend answered 401: ask the app to sign the user in again. The attempt is kept for the retry. */
        object RequestSignIn : Action()
    }

    private enum class Phase { CARD, LOADING, HIDDEN, UNAVAILABLE, PRESENTING, SHARING, OPENED }

    private var phase = Phase.CARD
    private var card: CatalogCard? = null
    /** The attempt kept for retries (body + key), if any. */
    var pending: PendingAttempt? = null
        private set
    private var retryNotBefore: Long? = null
    private var retryJoined = false
    private var signInRequired = false

    /** The screen for the current state. */
    val screen: ChiaScreen
        get() = when (phase) {
            Phase.CARD -> ChiaScreen(ChiaScreen.Content.CARD)
            Phase.LOADING -> ChiaScreen(ChiaScreen.Content.LOADING)
            Phase.HIDDEN -> ChiaScreen(ChiaScreen.Content.HIDDEN)
            Phase.UNAVAILABLE -> ChiaScreen(ChiaScreen.Content.UNAVAILABLE)
            Phase.PRESENTING -> {
                val card = card!!
                val share = card.handoff is MobileHandoff.ShareOrNeutral
                val notice = if (signInRequired) ChiaScreen.Notice.SIGN_IN_REQUIRED
                else if (pending == null || !share) null
                else if (retryNotBefore == null) ChiaScreen.Notice.SHARE_UNCERTAIN else ChiaScreen.Notice.SHARE_RETRY_LATER
                ChiaScreen(ChiaScreen.Content.of(card.handoff), card, share && !retryJoined, true, notice)
            }
            Phase.SHARING, Phase.OPENED -> ChiaScreen(ChiaScreen.Content.of(card!!.handoff), card)
        }

    /** Handles [event]; returns the actions to perform, in order. */
    fun handle(event: Event): List<Action> = when (event) {
        is Event.CallToActionTapped -> if (phase == Phase.CARD || phase == Phase.UNAVAILABLE) refresh() else emptyList()
        is Event.ProjectionLoaded -> if (phase == Phase.LOADING) present(event.card) else emptyList()
        is Event.ProjectionFailed -> if (phase == Phase.LOADING) {
            phase = Phase.UNAVAILABLE
            listOf(Action.Render(screen))
        } else emptyList()
        is Event.ShareTapped -> share(event.atMillis, event.freshKey)
        is Event.ContinueTapped -> continueWithoutSharing()
        is Event.ShareSucceeded -> if (phase == Phase.SHARING) {
            phase = Phase.OPENED
            pending = null
            listOf(Action.DiscardPendingAttempt, Action.Render(screen), Action.OpenExternalBrowser(event.url))
        } else emptyList()
        is Event.ShareFailed -> if (phase == Phase.SHARING) {
            shareFailed(RetryDecision.classify(event.outcome, event.atMillis), event.atMillis)
        } else emptyList()
        is Event.BrowserFailedToOpen -> if (phase == Phase.OPENED) refresh() else emptyList()
        is Event.ReturnLink -> {
            val parser = genericReturn
            if (parser != null && parser.parse(event.url) is ReturnLinkResult.Accepted) {
                listOf(Action.RouteToMarketplaceHome)
            } else emptyList()
        }
        is Event.Backgrounded -> emptyList()
        is Event.Foregrounded -> when (phase) {
            Phase.CARD, Phase.LOADING, Phase.SHARING -> emptyList()
            else -> refresh()
        }
        is Event.Restored -> {
            val attempt = event.attempt
            if (attempt != null && attempt.catalogItemId == catalogItemId && pending == null) pending = attempt
            refresh()
        }
        is Event.Tick -> tick(event.atMillis)
    }

    private fun refresh(): List<Action> {
        phase = Phase.LOADING
        retryNotBefore = null
        retryJoined = false
        signInRequired = false
        return listOf(Action.Render(screen), Action.FetchProjection)
    }

    private fun present(fresh: CatalogCard?): List<Action> {
        if (fresh == null || fresh.id != catalogItemId) {
            phase = Phase.HIDDEN
            return discardPending() + Action.Render(screen)
        }
        val actions = mutableListOf<Action>()
        val attempt = pending
        val handoff = fresh.handoff
        // A kept attempt survives only while it still matches the projection it was made for.
        if (attempt != null && !(handoff is MobileHandoff.ShareOrNeutral && attempt.catalogItemId == fresh.id &&
                attempt.disclosureVersion == handoff.disclosureVersion)
        ) actions += discardPending()
        card = fresh
        phase = Phase.PRESENTING
        actions += Action.Render(screen)
        return actions
    }

    private fun discardPending(): List<Action> {
        if (pending == null) return emptyList()
        pending = null
        return listOf(Action.DiscardPendingAttempt)
    }

    private fun share(atMillis: Long, freshKey: IdempotencyKey): List<Action> {
        val handoff = card?.handoff
        if (phase != Phase.PRESENTING || handoff !is MobileHandoff.ShareOrNeutral) return emptyList()
        if (retryNotBefore != null && pending != null) {
            // During a Retry-After wait the tap joins the pending retry: no new key, no request before the wait ends.
            if (retryJoined) return emptyList()
            retryJoined = true
            return listOf(Action.Render(screen))
        }
        phase = Phase.SHARING
        signInRequired = false
        val actions = mutableListOf<Action>(Action.Render(screen))
        val attempt = pending ?: PendingAttempt(freshKey, card!!.id, handoff.disclosureVersion, Rfc3339.format(atMillis))
            .also {
                pending = it
                actions += Action.SavePendingAttempt(it)
            }
        actions += Action.SendShareRequest(attempt)
        return actions
    }

    private fun continueWithoutSharing(): List<Action> {
        val current = card
        if (phase != Phase.PRESENTING || current == null) return emptyList()
        phase = Phase.OPENED
        retryNotBefore = null
        retryJoined = false
        val url = when (val handoff = current.handoff) {
            is MobileHandoff.NeutralOnly -> handoff.url
            is MobileHandoff.ShareOrNeutral -> handoff.neutralUrl
        }
        return listOf(Action.Render(screen), Action.OpenExternalBrowser(SensitiveUrl(url)))
    }

    private fun shareFailed(decision: RetryDecision, atMillis: Long): List<Action> = when (decision) {
        // Done here means a 2xx whose URL could not be read: the session may exist, so an unchanged retry is safe.
        is RetryDecision.Retry, is RetryDecision.Done -> {
            phase = Phase.PRESENTING
            val actions = mutableListOf<Action>()
            val after = (decision as? RetryDecision.Retry)?.afterSeconds
            if (after != null && after > 0) {
                val notBefore = atMillis + after * 1000L
                retryNotBefore = notBefore
                actions += Action.ScheduleTick(notBefore)
            }
            actions += Action.Render(screen)
            actions
        }
        is RetryDecision.SignInAndRetry -> {
            // The first attempt may have reached Chia: keep body and key for the retry after signing in.
            phase = Phase.PRESENTING
            signInRequired = true
            listOf(Action.RequestSignIn, Action.Render(screen))
        }
        is RetryDecision.RefetchProjection -> discardPending() + refresh()
    }

    private fun tick(nowMillis: Long): List<Action> {
        val notBefore = retryNotBefore
        if (notBefore == null || nowMillis < notBefore) return emptyList()
        retryNotBefore = null
        if (phase != Phase.PRESENTING) return emptyList()
        val attempt = pending
        if (retryJoined && attempt != null) {
            retryJoined = false
            phase = Phase.SHARING
            return listOf(Action.Render(screen), Action.SendShareRequest(attempt))
        }
        retryJoined = false
        return listOf(Action.Render(screen))
    }
}
