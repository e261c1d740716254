package baton.client

/** The browser component a provider requires (seed 000: external browser; 001: camera web view; 002: Custom Tab). */
sealed class BrowserStyle {
    /** Chia: the OS browser. Nothing comes back from it. */
    object ExternalBrowser : BrowserStyle() {
        override fun toString() = "external_browser"
    }

    /** BB: a Custom Tab; it ends on a redirect matching one of [returnUrls], or when the user comes back without one. */
    class CustomTab(val returnUrls: List<RegisteredReturnUrl>) : BrowserStyle() {
        override fun toString() = "custom_tab"
    }

    /**
     * Privue: a full-screen `WebView` with the camera, limited to the journey's origin; it ends itself on a navigation
     * to one of [returnUrls] ([JourneyNavigation]) or the user's close. [urlPolicy] decides which origins it may load.
     */
    class CameraWebView(val returnUrls: List<RegisteredReturnUrl>, val urlPolicy: UrlPolicy) : BrowserStyle() {
        override fun toString() = "camera_web_view"
    }
}

/** How a presented journey ended, as far as the app can see (BatonClient's `BrowserCompletion`). */
sealed class BrowserCompletion {
    /** The URL went to the OS browser (external browser only). */
    object HandedToSystem : BrowserCompletion() {
        override fun toString() = "HandedToSystem"
    }

    /** The URL could not be opened (no browser installed, no activity to host it, a URL the policy refuses). */
    object FailedToOpen : BrowserCompletion() {
        override fun toString() = "FailedToOpen"
    }

    /** The browser caught a return link: the raw string exactly as delivered. Printing it shows scheme and host only. */
    class Returned(val link: String) : BrowserCompletion() {
        override fun toString(): String = "Returned(" + (RawUrl.parse(link)?.let { "${it.normalizedScheme}://${it.normalizedHost}/…" } ?: "…") + ")"
        override fun equals(other: Any?) = other is Returned && other.link == link
        override fun hashCode() = link.hashCode()
    }

    /** The user closed the browser without a return. */
    object ClosedWithoutReturn : BrowserCompletion() {
        override fun toString() = "ClosedWithoutReturn"
    }

    /** The browser ended with an error that is not the user's close (the flow still asks the backend). */
    object Failed : BrowserCompletion() {
        override fun toString() = "Failed"
    }
}

/** Why a journey's browser never showed it (a screen's `browserFailure`); [wire] is its name in the shared vectors. */
enum class BrowserFailure(val wire: String) {
    /** No browser or activity could open the journey: nothing was shown. */
    FAILED_TO_OPEN("failed_to_open")
}

/**
 * Opens one journey in [BrowserStyle] and reports once how it ended. `baton.android` ships one per platform component
 * (`AndroidBrowserPresenter`); the JVM tests use a headless one that really loads the sandbox's pages.
 */
interface BrowserPresenter {
    /** Opens [url] unchanged; calls [completion] exactly once, on any thread. Must not keep [url]. */
    fun present(url: SensitiveUrl, style: BrowserStyle, completion: (BrowserCompletion) -> Unit)
}

/** Something scheduled that can be called off. */
interface Cancellable {
    fun cancel()
}

/**
 * Where a flow runs its work: [main] is serial (the machine lives there and listeners are called there — on Android
 * the main looper), [background] runs blocking backend calls, [schedule] delivers a tick at a wall-clock time.
 */
interface FlowRunner {
    /** Epoch milliseconds. */
    fun now(): Long

    fun main(task: () -> Unit)

    fun background(task: () -> Unit)

    fun schedule(atMillis: Long, task: () -> Unit): Cancellable
}

/**
 * A [FlowRunner] on plain `java.util.concurrent` executors (one serial thread for the flows, a pool for requests):
 * for JVM apps, tests and anything without a looper. Android apps get `baton.android.MainLooperRunner`.
 */
class ExecutorFlowRunner(private val clock: () -> Long = { System.currentTimeMillis() }) : FlowRunner {
    private val serial = java.util.concurrent.Executors.newSingleThreadScheduledExecutor { r ->
        Thread(r, "baton-main").also { it.isDaemon = true }
    }
    private val pool = java.util.concurrent.Executors.newCachedThreadPool { r ->
        Thread(r, "baton-io").also { it.isDaemon = true }
    }

    override fun now(): Long = clock()

    override fun main(task: () -> Unit) {
        serial.execute(task)
    }

    override fun background(task: () -> Unit) {
        pool.execute(task)
    }

    override fun schedule(atMillis: Long, task: () -> Unit): Cancellable {
        val future = serial.schedule(task, maxOf(0L, atMillis - now()), java.util.concurrent.TimeUnit.MILLISECONDS)
        return object : Cancellable {
            override fun cancel() {
                future.cancel(false)
            }
        }
    }
}

/**
 * The device's storage that Baton keeps its per-user records in: strings by name, nothing else (docs/CONTRACTS.md
 * §1.3). Baton names every record under the signed-in user's own prefix ([BatonUserStore]), so an implementation only
 * stores, lists and removes strings. `baton.android.SharedPreferencesBatonStorage` is the Android one.
 */
interface BatonStorage {
    fun read(name: String): String?
    fun write(name: String, value: String)
    fun remove(name: String)
    /** Every stored name that starts with [prefix]. */
    fun names(prefix: String): List<String>
}

/** A [BatonStorage] in memory (nothing survives the process): tests, and apps that choose not to persist. */
class InMemoryBatonStorage : BatonStorage {
    private val records = java.util.concurrent.ConcurrentHashMap<String, String>()

    /** Every value stored, as stored (tests check no journey URL is ever among it). */
    val contents: List<String> get() = records.values.toList()

    override fun read(name: String): String? = records[name]
    override fun write(name: String, value: String) {
        records[name] = value
    }
    override fun remove(name: String) {
        records.remove(name)
    }
    override fun names(prefix: String): List<String> = records.keys.filter { it.startsWith(prefix) }
}

/**
 * What Baton keeps across process death for ONE signed-in user: the Chia share attempts (body + key, never a URL) and
 * the BB session id (opaque, never the hosted URL), under the user's own prefix `users/u<user id's UTF-8 in hex>/` of
 * [storage]. A restore for one user can never read another's body, consent time or key, and a cold start never
 * confirms another user's bank session (Swift's `BatonUserData`). [BatonClient] builds it from
 * [BatonConfiguration.userId]; [clear] (sign-out) removes the user's records and ignores every later write.
 */
class BatonUserStore(private val storage: BatonStorage, val userId: String) {
    /** This user's prefix: hex has no `/`, so no user's prefix starts another's. */
    val prefix: String = "users/u" + userId.toByteArray(Charsets.UTF_8).joinToString("") { String.format("%02x", it.toInt() and 0xff) } + "/"
    @Volatile private var cleared = false

    fun loadPendingAttempt(catalogItemId: String): PendingAttempt? =
        if (cleared) null else storage.read(attemptName(catalogItemId))?.let { PendingAttempts.decode(it) }

    fun savePendingAttempt(attempt: PendingAttempt) {
        if (!cleared) storage.write(attemptName(attempt.catalogItemId), PendingAttempts.encode(attempt))
    }

    fun discardPendingAttempt(catalogItemId: String) = storage.remove(attemptName(catalogItemId))

    fun loadPendingSessionId(): String? = if (cleared) null else storage.read(prefix + "bb-session")

    fun savePendingSessionId(sessionId: String) {
        if (!cleared) storage.write(prefix + "bb-session", sessionId)
    }

    fun clearPendingSessionId() = storage.remove(prefix + "bb-session")

    /** Sign-out: removes every record of this user (never another's) and drops any write a late event attempts. */
    fun clear() {
        cleared = true
        for (name in storage.names(prefix)) storage.remove(name)
    }

    private fun attemptName(catalogItemId: String) = prefix + "attempt/" + catalogItemId
}

/**
 * Erases what the journeys' web views keep between visits (cookies, web storage), so the next user of the device does
 * not open Privue's journey signed in as the last one (seed 001). `baton.android.WebViewJourneyDataEraser` is the
 * Android one; [BatonClient.signOut] calls it on the thread that signs out (the main thread on Android).
 */
interface JourneyWebDataEraser {
    fun eraseJourneyWebData()
}

/** The stored form of a [PendingAttempt]: `{"key", "body"}` with the exact body bytes as text. */
object PendingAttempts {
    fun encode(attempt: PendingAttempt): String = "{\"body\":${Json.quote(attempt.bodyJson())},\"key\":${Json.quote(attempt.key.value)}}"

    /** The attempt, or `null` when [text] is not one this SDK wrote (a damaged store is treated as empty). */
    fun decode(text: String): PendingAttempt? = try {
        val o = org.json.JSONObject(text)
        val key = IdempotencyKey.of(o.getString("key"))
        val body = org.json.JSONObject(o.getString("body"))
        val attempt = key?.let {
            PendingAttempt(it, body.getString("catalogItemId"), body.getString("disclosureVersion"), body.getString("affirmedAt"))
        }
        if (attempt != null && attempt.bodyJson() == o.getString("body") && body.opt("affirmed") == true) attempt else null
    } catch (e: org.json.JSONException) {
        null
    }
}
