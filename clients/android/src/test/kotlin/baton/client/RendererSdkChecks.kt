package baton.client

/**
 * renderer-conformance.v1.json's `forbidden` and `accessibility` sections on the Kotlin shell: the SDK's own
 * [ChiaHandoff] flow and [HttpBackendClient] over a [RecordingTransport], a recording presenter and an in-memory
 * store, and the card's [CardRenderPlan]. A case that needs a browser or a device (CSS, axe, font scaling, a
 * keyboard) has no check here and is reported `not_run` with the reason.
 */
@Suppress("UNCHECKED_CAST")
class RendererSdkChecks(document: Map<String, Any?>) {
    private val projections = RendererFixtures.projections(document)
    private val fixtures = document["fixtures"] as Map<String, Any?>
    private val providerOrigins = fixtures["providerOrigins"] as List<String>
    private val journeyPattern = Regex(fixtures["journeyURLPattern"] as String)
    private val journey = "https://chia.test/h/phs_Conformance42"

    /** Why a case has no check on this shell. */
    val notRunReasons = mapOf(
        "no-resource-hints" to "web only: a native Android view has no resource hints",
        "no-window-open" to "web only: there is no window.open on Android",
        "no-inline-script" to "web only: the /web/ responses' CSP",
        "text-200-at-320" to "needs a device or emulator to lay the view out at 200 % font scale (no android.jar here)",
        "keyboard-only" to "needs a device or emulator to drive the view with a keyboard",
        "reduced-motion" to "needs a device or emulator (the view declares no animation, but nothing here ran it)",
        "axe-no-violations" to "web only: axe-core audits HTML"
    )

    /** The check for [section]/[id], or `null` when this shell has none. */
    fun check(section: String, id: String): (() -> String?)? = when ("$section/$id") {
        "forbidden/no-provider-request-before-tap" -> { { beforeTap() } }
        "forbidden/no-request-between-render-and-tap" -> { { betweenRenderAndTap() } }
        "forbidden/no-embedded-browser" -> { { externalBrowserOnly() } }
        "forbidden/journey-url-unchanged" -> { { journeyUnchanged() } }
        "forbidden/journey-url-not-persisted" -> { { notPersisted() } }
        "forbidden/journey-url-not-logged" -> { { notLogged() } }
        "forbidden/no-status-call" -> { { noStatusCall() } }
        "accessibility/reading-order" -> { { readingOrder() } }
        "accessibility/equal-access" -> { { equalAccess() } }
        "accessibility/image-alt" -> { { imageAlt() } }
        else -> null
    }

    /** One app: the flow for the `share` fixture over a recording transport; [shareStatuses] answer the shares in turn. */
    private inner class App(vararg shareStatuses: Int) {
        private val statuses = java.util.ArrayDeque(shareStatuses.toList())
        val transport = RecordingTransport(respond = { request ->
            when (request.path) {
                "/v2/catalog" -> SdkFixtures.response(200, "{\"items\":[${JsonValues.text(projections["share"])}]}")
                "/v2/handoff-sessions" -> {
                    val status = statuses.pollFirst() ?: 201
                    if (status == 201) SdkFixtures.response(201, "{\"expiresAt\":\"2026-01-01T00:15:00Z\",\"url\":\"$journey\"}")
                    else SdkFixtures.problem(status, "provider_unavailable", "Retry-After" to "0")
                }
                else -> SdkFixtures.response(404, "")
            }
        })
        val storage = InMemoryBatonStorage()
        val presented = java.util.Collections.synchronizedList(mutableListOf<Pair<String, BrowserStyle>>())
        val texts = java.util.Collections.synchronizedList(mutableListOf<String>())
        val screens = java.util.Collections.synchronizedList(mutableListOf<ChiaScreen>())
        val flow: ChiaHandoff

        init {
            val itemId = (projections["share"] as Map<String, Any?>)["id"] as String
            val presenter = object : BrowserPresenter {
                override fun present(url: SensitiveUrl, style: BrowserStyle, completion: (BrowserCompletion) -> Unit) {
                    presented += url.reveal() to style
                    texts += "present $url $style"
                    completion(BrowserCompletion.HandedToSystem)
                }
            }
            flow = SdkFixtures.client(transport, storage).chiaHandoff(itemId, presenter, object : ChiaHandoff.Listener {
                override fun onScreen(screen: ChiaScreen) {
                    screens += screen
                    texts += screen.toString()
                }
                override fun onSignInRequired() {
                    texts += "sign in"
                }
                override fun onBrowserFailed(completion: BrowserCompletion) {
                    texts += completion.toString()
                }
            })
        }

        fun idle(): Boolean = flow.awaitIdle(10_000)
        val requests: List<String> get() = transport.requests.map { it.toString() }
        val logged: List<String> get() = texts.toList() + transport.lines + transport.requests.map { it.toString() }
    }

    private fun beforeTap(): String? {
        val app = App()
        app.flow.start()
        app.flow.foregrounded()
        app.flow.backgrounded()
        app.idle()
        if (app.requests.isNotEmpty()) return "requests before any tap: ${app.requests}"
        app.flow.callToActionTapped()
        app.idle()
        val toProviders = app.transport.requests.filter { r -> providerOrigins.any { r.url.startsWith(it) } }
        return if (toProviders.isEmpty() && app.requests == listOf("GET /v2/catalog")) null else "requests: ${app.requests}"
    }

    private fun betweenRenderAndTap(): String? {
        val app = App()
        app.flow.callToActionTapped()
        app.idle()
        if (app.screens.lastOrNull()?.content != ChiaScreen.Content.SHARE_OR_NEUTRAL) return "the disclosure was not rendered"
        // The user reads; the app comes and goes; nothing is requested until a share tap.
        app.flow.backgrounded()
        app.idle()
        return if (app.requests == listOf("GET /v2/catalog")) null else "requests after render: ${app.requests.drop(1)}"
    }

    private fun externalBrowserOnly(): String? {
        val share = App()
        share.flow.callToActionTapped()
        share.idle()
        share.flow.shareTapped()
        share.idle()
        val without = App()
        without.flow.callToActionTapped()
        without.idle()
        without.flow.continueTapped()
        without.idle()
        val styles = (share.presented + without.presented).map { it.second }
        if (styles.size != 2) return "expected two presentations, got ${styles.size}"
        return if (styles.all { it == BrowserStyle.ExternalBrowser }) null else "styles: $styles"
    }

    private fun journeyUnchanged(): String? {
        val app = App()
        app.flow.callToActionTapped()
        app.idle()
        app.flow.shareTapped()
        app.flow.shareTapped()
        app.idle()
        val urls = app.presented.map { it.first }
        return if (urls == listOf(journey) && journeyPattern.matches(urls[0])) null else "opened ${urls.size} URL(s), not exactly the returned one"
    }

    private fun notPersisted(): String? {
        val app = App(503, 201)
        app.flow.callToActionTapped()
        app.idle()
        app.flow.shareTapped()
        app.idle()
        val kept = app.storage.contents
        if (kept.isEmpty()) return "the uncertain share's body and key were not kept"
        app.flow.shareTapped()
        app.idle()
        if (app.presented.size != 1) return "the retry opened ${app.presented.size} journeys"
        val leaked = (kept + app.storage.contents).filter { it.contains("phs_") || it.contains("chia.test") }
        return if (leaked.isEmpty() && app.storage.contents.isEmpty()) null else "the store held a journey URL or kept the attempt after success"
    }

    private fun notLogged(): String? {
        val app = App(503, 201)
        app.flow.callToActionTapped()
        app.idle()
        app.flow.shareTapped()
        app.idle()
        app.flow.shareTapped()
        app.idle()
        if (app.presented.size != 1) return "no journey opened"
        val leaked = app.logged.filter { it.contains("phs_") }
        return if (leaked.isEmpty()) null else "${leaked.size} printable value(s) carry the journey URL"
    }

    private fun noStatusCall(): String? {
        val app = App()
        app.flow.callToActionTapped()
        app.idle()
        app.flow.shareTapped()
        app.idle()
        val before = app.requests.size
        app.flow.backgrounded()
        app.flow.foregrounded()
        app.idle()
        val after = app.requests.drop(before)
        return if (after == listOf("GET /v2/catalog")) null else "after the return: $after"
    }

    private fun card(name: String): CatalogCard = CatalogCard.decode(JsonValues.toJson(projections[name]))!!

    private fun readingOrder(): String? {
        val card = card("share")
        val expected = card.blockOrder.map { "block:${it.wire}" } + listOf(
            "disclosure.heading", "disclosure.body", "disclosure.recipient", "disclosure.dataShared", "disclosure.purpose",
            "disclosure.compensationDisclosure", "disclosure.policyUrls", "action.primary", "action.secondary"
        )
        val machine = ChiaHandoffMachine(card.id, null)
        machine.handle(ChiaHandoffMachine.Event.CallToActionTapped)
        machine.handle(ChiaHandoffMachine.Event.ProjectionLoaded(card))
        val ids = CardRenderPlan.of(card, machine.screen, true).map { it.id }
        // block_order is followed whatever it is.
        val reordered = card.copy(blockOrder = card.blockOrder.reversed())
        val reorderedIds = CardRenderPlan.card(reordered).map { it.id }
        return when {
            ids != expected -> "order $ids"
            reorderedIds != reordered.blockOrder.map { "block:${it.wire}" } -> "block_order not followed: $reorderedIds"
            else -> null
        }
    }

    private fun equalAccess(): String? {
        val card = card("share")
        val machine = ChiaHandoffMachine(card.id, null)
        machine.handle(ChiaHandoffMachine.Event.CallToActionTapped)
        machine.handle(ChiaHandoffMachine.Event.ProjectionLoaded(card))
        val screens = listOf(machine.screen) + machine.handle(ChiaHandoffMachine.Event.ShareTapped(0, IdempotencyKey.random()))
            .filterIsInstance<ChiaHandoffMachine.Action.Render>().map { it.screen }
        for (screen in screens) {
            val actions = CardRenderPlan.disclosure(card, screen).filter { it.id.startsWith("action.") }
            if (actions.size != 2) return "${actions.size} actions"
            if (actions[0].role != actions[1].role || actions[0].enabled != actions[1].enabled) return "unequal actions on ${screen.content.wire}: $actions"
        }
        return null
    }

    private fun imageAlt(): String? {
        val card = card("share")
        val image = CardRenderPlan.card(card).single { it.role == CardElement.Role.IMAGE }
        return if (image.contentDescription == card.imageAlt && card.imageAlt.isNotEmpty()) null else "image description ${image.contentDescription}"
    }
}
