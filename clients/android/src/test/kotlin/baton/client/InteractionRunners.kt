package baton.client

import org.json.JSONObject

private fun Map<String, Any?>.millis(key: String) = Rfc3339.parse(this[key] as String)

private fun failure(text: Any?) = if (text == "retryable") RequestFailure.RETRYABLE else RequestFailure.DEFINITIVE

/** Drives [ChiaHandoffMachine] with `interaction.v1.json` events; a simulated store makes `restart` restore. */
@Suppress("UNCHECKED_CAST")
class ChiaVectorRunner(config: Map<String, Any?>, private val cards: Map<String, Any?>) {
    private val itemId = config["catalogItemId"] as String
    private val generic = (config["genericReturnHost"] as String?)?.let { GenericReturnParser(it) }
    private var machine = ChiaHandoffMachine(itemId, generic)
    private var stored: PendingAttempt? = null

    fun apply(event: Map<String, Any?>): List<Map<String, Any?>> {
        val input: ChiaHandoffMachine.Event = when (val type = event["type"]) {
            "cta" -> ChiaHandoffMachine.Event.CallToActionTapped
            "projection" -> ChiaHandoffMachine.Event.ProjectionLoaded(
                (event["card"] as String?)?.let { CatalogCard.decode(JsonValues.toJson(cards[it])) }
            )
            "projection_failed" -> ChiaHandoffMachine.Event.ProjectionFailed
            "share_tap" -> ChiaHandoffMachine.Event.ShareTapped(event.millis("at"), IdempotencyKey.of(event["freshKey"] as String)!!)
            "continue_tap" -> ChiaHandoffMachine.Event.ContinueTapped
            "share_response" -> shareResponse(event)
            "browser_failed" -> ChiaHandoffMachine.Event.BrowserFailedToOpen
            "return_link" -> ChiaHandoffMachine.Event.ReturnLink(event["url"] as String)
            "background" -> ChiaHandoffMachine.Event.Backgrounded
            "foreground" -> ChiaHandoffMachine.Event.Foregrounded
            "tick" -> ChiaHandoffMachine.Event.Tick(event.millis("at"))
            "restart" -> {
                machine = ChiaHandoffMachine(itemId, generic)
                ChiaHandoffMachine.Event.Restored(stored)
            }
            else -> throw IllegalArgumentException("unknown chia event $type")
        }
        return machine.handle(input).map { action ->
            when (action) {
                is ChiaHandoffMachine.Action.Render -> render(action.screen)
                is ChiaHandoffMachine.Action.FetchProjection -> mapOf("request" to "GET /v2/catalog")
                is ChiaHandoffMachine.Action.SavePendingAttempt -> {
                    stored = action.attempt
                    mapOf("persist" to "save", "idempotencyKey" to action.attempt.key.value, "body" to body(action.attempt))
                }
                is ChiaHandoffMachine.Action.SendShareRequest -> mapOf(
                    "request" to "POST /v2/handoff-sessions", "idempotencyKey" to action.attempt.key.value,
                    "body" to body(action.attempt)
                )
                is ChiaHandoffMachine.Action.DiscardPendingAttempt -> {
                    stored = null
                    mapOf("persist" to "discard")
                }
                is ChiaHandoffMachine.Action.OpenExternalBrowser -> mapOf("navigate" to "external", "url" to action.url.reveal())
                is ChiaHandoffMachine.Action.ScheduleTick -> mapOf("tick" to Rfc3339.format(action.atMillis))
                is ChiaHandoffMachine.Action.RouteToMarketplaceHome -> mapOf("route" to "marketplace-home")
                is ChiaHandoffMachine.Action.RequestSignIn -> mapOf("signIn" to "required")
            }
        }
    }

    private fun shareResponse(event: Map<String, Any?>): ChiaHandoffMachine.Event {
        val transport = event["transport"] as String?
        if (transport != null) return ChiaHandoffMachine.Event.ShareFailed(ShareOutcome.Transport(TransportFailure.of(transport)!!), event.millis("at"))
        val status = (event["status"] as Long).toInt()
        if (status in 200..299) return ChiaHandoffMachine.Event.ShareSucceeded(SensitiveUrl(event["url"] as String))
        return ChiaHandoffMachine.Event.ShareFailed(ShareOutcome.Response(status, event["retryAfter"] as String?), event.millis("at"))
    }

    companion object {
        fun body(attempt: PendingAttempt): Any? = JsonValues.plain(JSONObject(attempt.bodyJson()))

        fun render(screen: ChiaScreen): Map<String, Any?> {
            val labels = screen.actionLabels
            val enabled = mutableListOf<String>()
            if (screen.shareEnabled && MobileHandoff.SHARE_LABEL in labels) enabled += "share"
            if (screen.continueEnabled && labels.isNotEmpty()) enabled += "continue"
            val result = linkedMapOf<String, Any?>("render" to screen.content.wire, "actions" to labels, "enabled" to enabled)
            screen.notice?.let { result["notice"] = it.wire }
            return result
        }
    }
}

/** Drives [ConnectMachine]; the Custom Tab is reported in the shared vocabulary (`authentication_session`). */
@Suppress("UNCHECKED_CAST")
class ConnectVectorRunner(config: Map<String, Any?>) {
    private val callback = config["callback"] as Map<String, Any?>
    private val kind = CallbackKind.of(callback["kind"] as String)!!
    private val caught = if (kind == CallbackKind.HTTPS) "https://${callback["host"]}${callback["path"]}" else callback["scheme"] as String
    private val polling = (config["polling"] as Map<String, Any?>).let {
        PollingPolicy(it["interval"] as Long, it["timeout"] as Long)
    }
    private val parser = ConnectReturnParser(config["registered"] as List<String>)
    private var kept: String? = null
    private var machine = ConnectMachine(kind, parser, polling)

    fun apply(event: Map<String, Any?>): List<Map<String, Any?>> {
        val input: ConnectMachine.Event = when (val type = event["type"]) {
            "connect_tap" -> ConnectMachine.Event.ConnectTapped(event.millis("at"))
            "session_created" -> ConnectMachine.Event.SessionCreated(
                event["sessionId"] as String, SensitiveUrl(event["hostedUrl"] as String), CallbackKind.of(event["callback"] as String)!!
            )
            "session_failed" -> ConnectMachine.Event.SessionCreationFailed(failure(event["failure"]))
            "return_link" -> ConnectMachine.Event.ReturnLink(event["url"] as String, event.millis("at"))
            "sheet_return" -> ConnectMachine.Event.BrowserReturn(event["url"] as String, event.millis("at"))
            "cold_launch" -> {
                // A new process: a new machine given only the session id the store kept.
                machine = ConnectMachine(kind, parser, polling, kept)
                return listOf(render(machine.screen))
            }
            "browser_closed" -> ConnectMachine.Event.BrowserClosed(event.millis("at"))
            "session_state" -> ConnectMachine.Event.SessionStateReceived(
                event["sessionId"] as String, ConnectSessionStatus.of(event["status"] as String)!!, event.millis("at")
            )
            "session_state_failed" -> ConnectMachine.Event.SessionStateFailed(failure(event["failure"]), event.millis("at"))
            "background" -> ConnectMachine.Event.Backgrounded
            "foreground" -> ConnectMachine.Event.Foregrounded(event.millis("at"))
            "restore" -> ConnectMachine.Event.Restored(event["sessionId"] as String?, event.millis("at"))
            "tick" -> ConnectMachine.Event.Tick(event.millis("at"))
            else -> throw IllegalArgumentException("unknown connect event $type")
        }
        return machine.handle(input).mapNotNull { action ->
            when (action) {
                is ConnectMachine.Action.Render -> render(action.screen)
                is ConnectMachine.Action.CreateSession ->
                    mapOf("request" to "POST /v2/connect-sessions", "callback" to action.callbackKind.wire)
                is ConnectMachine.Action.OpenCustomTab ->
                    mapOf("navigate" to "authentication_session", "url" to action.url.reveal(), "callback" to caught)
                is ConnectMachine.Action.FetchSession -> mapOf("request" to "GET /v2/connect-sessions/${action.sessionId}")
                is ConnectMachine.Action.ScheduleTick -> mapOf("tick" to Rfc3339.format(action.atMillis))
                is ConnectMachine.Action.KeepPendingSession -> {
                    kept = action.sessionId
                    mapOf("persist" to "keep_session", "sessionId" to action.sessionId)
                }
                is ConnectMachine.Action.ForgetPendingSession -> {
                    kept = null
                    mapOf("persist" to "forget_session")
                }
            }
        }
    }

    private fun render(screen: ConnectScreen): Map<String, Any?> {
        val result = linkedMapOf<String, Any?>("render" to screen.wire)
        if (screen is ConnectScreen.CouldNotStart) result["failure"] = screen.failure?.wire
        if (screen is ConnectScreen.Confirming) result["hint"] = screen.hint.wire
        return result
    }
}

/** Drives [VerificationMachine]. */
@Suppress("UNCHECKED_CAST")
class VerificationVectorRunner(config: Map<String, Any?>) {
    private val polling = (config["polling"] as Map<String, Any?>).let {
        PollingPolicy(it["interval"] as Long, it["timeout"] as Long)
    }
    private val machine = VerificationMachine(
        config["workflow"] as String, VerificationReturnParser(config["registered"] as List<String>), polling
    )

    fun apply(event: Map<String, Any?>): List<Map<String, Any?>> {
        val input: VerificationMachine.Event = when (val type = event["type"]) {
            "verify_tap" -> VerificationMachine.Event.VerifyTapped(event.millis("at"))
            "handoff_created" -> VerificationMachine.Event.HandoffCreated(SensitiveUrl(event["url"] as String))
            "handoff_failed" -> VerificationMachine.Event.HandoffFailed(failure(event["failure"]))
            "return_link" -> VerificationMachine.Event.ReturnLink(event["url"] as String, event.millis("at"))
            "web_view_return" -> VerificationMachine.Event.WebViewReturn(event["url"] as String, event.millis("at"))
            "browser_closed" -> VerificationMachine.Event.BrowserClosed(event.millis("at"))
            "status" -> VerificationMachine.Event.StatusReceived(event["status"] as String, event.millis("at"))
            "status_failed" -> VerificationMachine.Event.StatusFailed(failure(event["failure"]), event.millis("at"))
            "background" -> VerificationMachine.Event.Backgrounded
            "foreground" -> VerificationMachine.Event.Foregrounded(event.millis("at"))
            "restore" -> VerificationMachine.Event.Restored(event.millis("at"))
            "tick" -> VerificationMachine.Event.Tick(event.millis("at"))
            else -> throw IllegalArgumentException("unknown verification event $type")
        }
        return machine.handle(input).mapNotNull { action ->
            when (action) {
                is VerificationMachine.Action.Render -> render(action.screen)
                is VerificationMachine.Action.RequestHandoff ->
                    mapOf("request" to "POST /v2/verification-handoffs", "workflow" to action.workflow)
                is VerificationMachine.Action.PresentCameraWebView ->
                    mapOf("navigate" to "camera_web_view", "url" to action.url.reveal())
                is VerificationMachine.Action.FetchStatus -> mapOf("request" to "GET /v2/verifications/${action.workflow}")
                is VerificationMachine.Action.ScheduleTick -> mapOf("tick" to Rfc3339.format(action.atMillis))
                // Closing the web view is the presenter's side of ending the browser phase (not in the vocabulary).
                is VerificationMachine.Action.DismissWebView -> null
            }
        }
    }

    private fun render(screen: VerificationScreen): Map<String, Any?> {
        val result = linkedMapOf<String, Any?>("render" to screen.wire)
        if (screen is VerificationScreen.CouldNotStart) result["failure"] = screen.failure?.wire
        if (screen is VerificationScreen.Confirming && screen.landingHint != null) result["landingHint"] = screen.landingHint
        if (screen is VerificationScreen.Settled) result["status"] = screen.status
        return result
    }
}
