package baton.client

import java.net.HttpURLConnection
import java.net.URL
import kotlin.system.exitProcess

/**
 * The nine journeys of `baton demo` (Sources/BatonCLI/Demo/DemoWalk.swift), walked by the Kotlin SDK — its own
 * [BatonClient], flow objects and [HttpBackendClient] over `HttpURLConnection` — against a live
 * `baton serve --sandbox`, with the browser played by [HeadlessPresenter]. Each journey must end as Swift's does.
 *
 * `java baton.client.JourneyWalk BACKEND CHIA PRIVUE BB` (origins as `baton serve` prints them); prints a transcript
 * and last `kotlin journeys: N passed, N failed`; exits 1 unless all nine ended as expected.
 */
object JourneyWalk {
    const val USER = "demo_user"
    const val SHARE_ITEM = "cat_weight_care"
    const val WORKFLOW = "merchant-onboarding"
    val PRIVUE_RETURN = listOf("https://app.example.com/kyc/done")
    val BB_RETURNS = listOf("https://app.example.com/bb-callback", "acmewallet://bb-callback")
    private const val WAIT = 30_000L

    private lateinit var base: String
    private lateinit var chia: String
    private lateinit var privue: String
    private var started = System.nanoTime()
    private val runner = ExecutorFlowRunner()

    private fun step(kind: String, text: String) {
        val ms = (System.nanoTime() - started) / 1_000_000
        println(String.format("  %6d ms  %-8s %s", ms, kind, text))
    }

    @JvmStatic
    fun main(args: Array<String>) {
        if (args.size != 4) {
            System.err.println("usage: JourneyWalk BACKEND CHIA PRIVUE BB")
            exitProcess(2)
        }
        base = args[0]
        chia = args[1]
        privue = args[2]
        val journeys = listOf<Pair<String, () -> Boolean>>(
            "Chia: share selection and continue" to { chiaShare() },
            "Chia: continue without sharing" to { chiaNoShare() },
            "Chia: a double tap opens one journey" to { chiaDoubleTap() },
            "Chia: retry after an injected 503 reuses its key" to { chiaRetry() },
            "Privue: verification approved" to { privue(USER, false) },
            "Privue: an expired handoff falls back to the mobile number" to { privue(USER + "_late", true) },
            "BB: connect Ok" to { connect(HeadlessOutcome.CompleteConnect("Ok"), "connected") },
            "BB: connect Cancelled" to { connect(HeadlessOutcome.CompleteConnect("Cancelled"), "cancelled") },
            "BB: sheet closed without a return" to { connect(HeadlessOutcome.Close, "cancelled") }
        )
        var passed = 0
        for ((index, journey) in journeys.withIndex()) {
            started = System.nanoTime()
            println()
            println("[${index + 1}/${journeys.size}] ${journey.first}")
            val ok = try {
                journey.second()
            } catch (e: Exception) {
                step("error", e.javaClass.simpleName)
                false
            }
            step("result", if (ok) "✓ ended as expected" else "✗ did not end as expected")
            if (ok) passed += 1
        }
        println()
        println("kotlin journeys: $passed passed, ${journeys.size - passed} failed")
        exitProcess(if (passed == journeys.size) 0 else 1)
    }

    // The app

    private fun post(url: String, body: String?, devSecret: String? = null): Pair<Int, String> {
        val connection = URL(url).openConnection() as HttpURLConnection
        connection.requestMethod = "POST"
        connection.connectTimeout = 10_000
        connection.readTimeout = 10_000
        connection.doOutput = true
        connection.setRequestProperty("Content-Type", "application/json")
        if (devSecret != null) connection.setRequestProperty("X-Baton-Dev-Secret", devSecret)
        val bytes = (body ?: "").toByteArray()
        connection.setFixedLengthStreamingMode(bytes.size)
        connection.outputStream.use { it.write(bytes) }
        val status = connection.responseCode
        val stream = if (status >= 400) connection.errorStream else connection.inputStream
        return status to (stream?.use { String(it.readBytes()) } ?: "")
    }

    private fun token(user: String): String {
        // The sandbox's dev sign-in answers only with this run's secret (scripts/journeys reads .baton/dev-sign-in-secret).
        val secret = System.getenv("BATON_DEV_SIGN_IN_SECRET")
        val (status, body) = post("$base/web/dev-token?user=$user", null, secret)
        check(status == 200) { "dev-token answered $status" }
        return org.json.JSONObject(body).getString("token")
    }

    private class App(user: String) {
        val transport = RecordingTransport(HttpUrlConnectionTransport())
        val client: BatonClient

        init {
            val token = token(user)
            transport.observer = { step("backend", it) }
            client = BatonClient(
                BatonConfiguration(
                    backendBaseUrl = base, userId = user, tokenProvider = { token }, bbReturnUrls = BB_RETURNS,
                    privueReturnUrls = PRIVUE_RETURN, urlPolicy = UrlPolicy.DEVELOPMENT, transport = transport, runner = runner
                )
            )
        }

        val shareKeys: List<String>
            get() = transport.requests.filter { it.method == "POST" && it.path == "/v2/handoff-sessions" }.map { it.header("Idempotency-Key") ?: "" }
    }

    private fun report(presenter: HeadlessPresenter) {
        for (p in presenter.presentations) {
            step("browser", p.toString())
            p.signIn?.let { step("browser", "signed in with the " + (if (it == "ticket") "handoff ticket" else it)) }
        }
    }

    /** Waits (bounded) until [condition] holds; answers whether it did. */
    private fun waitFor(timeoutMillis: Long, condition: () -> Boolean): Boolean {
        val deadline = System.currentTimeMillis() + timeoutMillis
        val lock = Object()
        while (!condition()) {
            val left = deadline - System.currentTimeMillis()
            if (left <= 0) return false
            synchronized(lock) { lock.wait(minOf(left, 20L)) }
        }
        return true
    }

    // Chia

    private class ChiaScreens : ChiaHandoff.Listener {
        @Volatile var last: ChiaScreen? = null
        override fun onScreen(screen: ChiaScreen) {
            if (screen != last) step("screen", describe(screen))
            last = screen
        }

        fun describe(s: ChiaScreen) = s.content.wire + (if (s.actionLabels.isNotEmpty()) ": " + s.actionLabels.joinToString(" | ") else "") +
            (if (s.card != null) " (share ${if (s.shareEnabled) "on" else "off"}, continue ${if (s.continueEnabled) "on" else "off"})" else "") +
            (s.notice?.let { " [${it.wire}]" } ?: "")
    }

    private fun chiaApp(app: App, presenter: HeadlessPresenter, screens: ChiaScreens): ChiaHandoff? {
        val flow = app.client.chiaHandoff(SHARE_ITEM, presenter, screens)
        flow.start()
        step("tap", "catalog card $SHARE_ITEM: call to action")
        flow.callToActionTapped()
        if (!flow.awaitIdle(WAIT)) return null
        return if (screens.last?.content == ChiaScreen.Content.SHARE_OR_NEUTRAL) flow else null
    }

    private fun chiaShare(): Boolean {
        val (app, presenter, screens) = Triple(App(USER), HeadlessPresenter(), ChiaScreens())
        val flow = chiaApp(app, presenter, screens) ?: return false
        step("tap", MobileHandoff.SHARE_LABEL)
        flow.shareTapped()
        flow.awaitIdle(WAIT)
        report(presenter)
        flow.stop()
        return presenter.presentations.map { it.firstPage } == listOf("chia-journey")
    }

    private fun chiaNoShare(): Boolean {
        val (app, presenter, screens) = Triple(App(USER), HeadlessPresenter(), ChiaScreens())
        val flow = chiaApp(app, presenter, screens) ?: return false
        step("tap", MobileHandoff.CONTINUE_WITHOUT_SHARING_LABEL)
        flow.continueTapped()
        flow.awaitIdle(WAIT)
        report(presenter)
        flow.stop()
        return presenter.presentations.map { it.firstPage } == listOf("chia-neutral") && app.shareKeys.isEmpty()
    }

    private fun chiaDoubleTap(): Boolean {
        val (app, presenter, screens) = Triple(App(USER), HeadlessPresenter(), ChiaScreens())
        val flow = chiaApp(app, presenter, screens) ?: return false
        step("tap", MobileHandoff.SHARE_LABEL + " ×2 (at once)")
        val taps = (1..2).map { Thread { flow.shareTapped() } }
        taps.forEach { it.start() }
        taps.forEach { it.join() }
        flow.awaitIdle(WAIT)
        report(presenter)
        flow.stop()
        val requests = app.shareKeys.size
        val opened = presenter.presentations.size
        step("check", "$requests share request, $opened journey opened")
        return requests == 1 && opened == 1
    }

    private fun chiaRetry(): Boolean {
        val (status, _) = post("$chia/_sandbox/faults", "{\"endpoint\":\"POST /v2/handoff-sessions\",\"fault\":\"status\",\"status\":503,\"count\":3}")
        if (status != 201) return false
        step("sandbox", "Chia answers the next 3 share calls with 503 (outlasting the backend's retries)")
        val (app, presenter, screens) = Triple(App(USER), HeadlessPresenter(), ChiaScreens())
        val flow = chiaApp(app, presenter, screens) ?: return false
        step("tap", MobileHandoff.SHARE_LABEL)
        flow.shareTapped()
        flow.awaitIdle(WAIT)
        // The exact body and key are kept; the retry is offered once Retry-After has passed.
        if (!waitFor(WAIT) { screens.last?.let { it.shareEnabled && it.notice == ChiaScreen.Notice.SHARE_UNCERTAIN } == true }) return false
        step("tap", MobileHandoff.SHARE_LABEL + " (retry)")
        flow.shareTapped()
        flow.awaitIdle(WAIT)
        report(presenter)
        flow.stop()
        val keys = app.shareKeys
        val sameKey = keys.size == 2 && keys[0] == keys[1]
        step("check", if (sameKey) "the retry reused the same Idempotency-Key" else "the keys differ (${keys.size} requests)")
        return sameKey && presenter.presentations.map { it.firstPage } == listOf("chia-journey")
    }

    // Privue

    private fun advanceClock(seconds: Int): Boolean {
        val (status, _) = post("$privue/_sandbox/clock", "{\"advanceSeconds\":$seconds}")
        if (status != 200) step("sandbox", "POST /_sandbox/clock answered $status: the sandbox clock cannot be moved")
        return status == 200
    }

    private fun privue(user: String, expireTicketFirst: Boolean): Boolean {
        val app = App(user)
        val presenter = HeadlessPresenter()
        var moved = false
        presenter.script(HeadlessOutcome.SubmitVerification("approved")) {
            if (expireTicketFirst) {
                step("wait", "the user waits past the ticket's 120 s (sandbox clock +121 s)")
                moved = advanceClock(121)
            }
        }
        var last: VerificationScreen? = null
        val flow = app.client.verification(WORKFLOW, presenter, object : Verification.Listener {
            override fun onScreen(screen: VerificationScreen) {
                last = screen
                step("screen", screen.wire + ((screen as? VerificationScreen.Settled)?.let { " (${it.status})" } ?: "") +
                    ((screen as? VerificationScreen.Confirming)?.landingHint?.let { " [hint $it]" } ?: ""))
            }
        })
        step("tap", "Verify")
        flow.verifyTapped()
        flow.awaitIdle(WAIT)
        waitFor(WAIT) { last !is VerificationScreen.Confirming }
        // Put the sandbox's clock back: the backend keeps serving it after the walk.
        if (moved) advanceClock(-121)
        report(presenter)
        flow.stop()
        step("outcome", last.toString())
        val signIn = presenter.presentations.firstOrNull()?.signIn
        val expected = if (expireTicketFirst) "mobile number (ticket_expired)" else "ticket"
        return last == VerificationScreen.Settled("approved") && signIn == expected
    }

    // BB

    private fun connect(outcome: HeadlessOutcome, expected: String): Boolean {
        val app = App(USER)
        val presenter = HeadlessPresenter()
        presenter.script(outcome)
        var last: ConnectScreen? = null
        val flow = app.client.bankConnect(presenter, object : BankConnect.Listener {
            override fun onScreen(screen: ConnectScreen) {
                last = screen
                step("screen", screen.wire + ((screen as? ConnectScreen.Confirming)?.let { " [hint ${it.hint.wire}]" } ?: ""))
            }
        })
        flow.start()
        step("tap", "Connect")
        flow.connectTapped()
        flow.awaitIdle(WAIT)
        waitFor(WAIT) { last !is ConnectScreen.Confirming }
        report(presenter)
        // Stops the bounded polling a closed tab leaves running.
        flow.stop()
        step("outcome", last.toString())
        return last?.wire == expected
    }
}
