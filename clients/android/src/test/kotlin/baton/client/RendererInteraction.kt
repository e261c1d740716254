package baton.client

/**
 * `renderer-conformance.v1.json` interaction cases, driven through [ChiaHandoffMachine] with the file's
 * `clientVocabulary` (tap_cta = cta + projection, tap_share = n share taps + the response + the refetched projection
 * after a definitive answer, restore = foreground + projection). The clock advances a minute before every step and a
 * due tick is delivered, as a user tapping again later would see.
 */
@Suppress("UNCHECKED_CAST")
class RendererInteraction(document: Map<String, Any?>) {
    private val projections = RendererFixtures.projections(document)

    fun check(case: Map<String, Any?>): String? {
        val fixture = case["card"] as String? ?: "share"
        val itemId = (projections[fixture] as Map<String, Any?>)["id"] as String
        val machine = ChiaHandoffMachine(itemId, null)
        var now = Rfc3339.parse("2026-01-01T00:00:00Z")
        var keys = 0
        var journeys = 0
        var lastPost: Pair<String, String>? = null
        var scheduled: Long? = null
        for ((index, step) in (case["steps"] as List<Map<String, Any?>>).withIndex()) {
            now += 60_000
            val effects = mutableListOf<ChiaHandoffMachine.Action>()
            fun send(event: ChiaHandoffMachine.Event) {
                val actions = machine.handle(event)
                for (action in actions) if (action is ChiaHandoffMachine.Action.ScheduleTick) scheduled = action.atMillis
                effects += actions
            }
            val due = scheduled
            if (due != null && due <= now) {
                scheduled = null
                machine.handle(ChiaHandoffMachine.Event.Tick(now))
            }
            fun projection() = ChiaHandoffMachine.Event.ProjectionLoaded(
                CatalogCard.decode(JsonValues.toJson(projections[step["projection"] as String]))
            )
            var journeyUrl: String? = null
            when (val event = step["event"]) {
                "tap_cta" -> {
                    send(ChiaHandoffMachine.Event.CallToActionTapped)
                    send(projection())
                }
                "tap_share" -> {
                    val taps = (step["taps"] as Long?)?.toInt() ?: 1
                    repeat(taps) {
                        keys += 1
                        val key = IdempotencyKey.of(String.format("00000000-0000-4000-8000-%012d", keys))!!
                        send(ChiaHandoffMachine.Event.ShareTapped(now, key))
                    }
                    val respond = step["respond"] as Map<String, Any?>
                    val transport = respond["transport"] as String?
                    val status = (respond["status"] as Long?)?.toInt()
                    when {
                        transport != null -> send(ChiaHandoffMachine.Event.ShareFailed(ShareOutcome.Transport(TransportFailure.of(transport)!!), now))
                        status != null && status in 200..299 -> {
                            journeys += 1
                            journeyUrl = "https://chia.test/h/phs_journey$journeys"
                            send(ChiaHandoffMachine.Event.ShareSucceeded(SensitiveUrl(journeyUrl)))
                        }
                        status != null -> send(
                            ChiaHandoffMachine.Event.ShareFailed(ShareOutcome.Response(status, respond["retryAfter"] as String?), now)
                        )
                    }
                    if (effects.any { it is ChiaHandoffMachine.Action.FetchProjection }) send(projection())
                }
                "tap_without_sharing", "tap_neutral" -> send(ChiaHandoffMachine.Event.ContinueTapped)
                "restore" -> {
                    send(ChiaHandoffMachine.Event.Foregrounded)
                    send(projection())
                }
                else -> return "step $index: unknown event $event"
            }
            val expect = step["expect"] as Map<String, Any?>
            val requests = effects.mapNotNull {
                when (it) {
                    is ChiaHandoffMachine.Action.FetchProjection -> "GET /v2/catalog"
                    is ChiaHandoffMachine.Action.SendShareRequest -> "POST /v2/handoff-sessions"
                    else -> null
                }
            }
            if (expect.containsKey("requests") && requests != expect["requests"]) return "step $index: requests $requests"
            val posts = effects.filterIsInstance<ChiaHandoffMachine.Action.SendShareRequest>()
            val shareRequest = expect["shareRequest"] as Map<String, Any?>?
            if (shareRequest != null) {
                val post = posts.firstOrNull() ?: return "step $index: no share request"
                val sent = post.attempt.key.value to post.attempt.bodyJson()
                val key = if (lastPost?.first == sent.first) "kept" else "new"
                val body = if (lastPost?.second == sent.second) "kept" else "new"
                if (key != shareRequest["key"] || body != shareRequest["body"]) return "step $index: key $key body $body"
            }
            posts.lastOrNull()?.let { lastPost = it.attempt.key.value to it.attempt.bodyJson() }
            val pending = if (machine.pending == null) "none" else "kept"
            if (expect.containsKey("pending") && pending != expect["pending"]) return "step $index: pending $pending"
            val navigations = effects.filterIsInstance<ChiaHandoffMachine.Action.OpenExternalBrowser>().map {
                if (it.url.reveal() == journeyUrl) "journey" else "neutral"
            }
            if (expect.containsKey("navigations") && navigations != expect["navigations"]) {
                return "step $index: navigations $navigations"
            }
            val screen = machine.screen
            if (expect.containsKey("actions") && screen.actionLabels != expect["actions"]) {
                return "step $index: actions ${screen.actionLabels}"
            }
            if (expect.containsKey("actionsEnabled")) {
                val share = screen.card?.handoff is MobileHandoff.ShareOrNeutral
                val enabled = screen.continueEnabled && (!share || screen.shareEnabled)
                if (enabled != expect["actionsEnabled"]) return "step $index: actionsEnabled $enabled"
            }
        }
        return null
    }
}
