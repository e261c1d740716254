package baton.android

import android.content.ActivityNotFoundException
import android.content.Context
import android.content.Intent
import android.os.Handler
import android.os.Looper
import androidx.activity.result.contract.ActivityResultContract
import baton.client.BatonStore
import baton.client.BrowserCompletion
import baton.client.BrowserPresenter
import baton.client.BrowserStyle
import baton.client.Cancellable
import baton.client.Dismissible
import baton.client.FlowRunner
import baton.client.PendingAttempt
import baton.client.PendingAttempts
import baton.client.PresentationRegistry
import baton.client.SensitiveUrl
import java.util.concurrent.Executors

/** The library's process-wide state: the in-memory presentations its activities serve. */
object BatonAndroid {
    /** Journey URLs by opaque ticket, taken once; never written to an Intent or to disk. */
    val presentations = PresentationRegistry()

    /** The return link that cold-started the app through [BatonRedirectActivity], once (pass it to `BankConnect.start`). */
    fun takeColdStartLink(): String? = presentations.takePendingLink()

    internal const val EXTRA_TICKET = "baton.ticket"
    internal const val EXTRA_COMPLETION = "baton.completion"
    internal const val EXTRA_LINK = "baton.link"
}

/** A [FlowRunner] on the main looper (listeners are called on the UI thread) with a small pool for requests. */
class MainLooperRunner : FlowRunner {
    private val handler = Handler(Looper.getMainLooper())
    private val pool = Executors.newCachedThreadPool()

    override fun now(): Long = System.currentTimeMillis()

    override fun main(task: () -> Unit) {
        handler.post(Runnable { task() })
    }

    override fun background(task: () -> Unit) {
        pool.execute(task)
    }

    override fun schedule(atMillis: Long, task: () -> Unit): Cancellable {
        val runnable = Runnable { task() }
        handler.postDelayed(runnable, maxOf(0L, atMillis - now()))
        return object : Cancellable {
            override fun cancel() = handler.removeCallbacks(runnable)
        }
    }
}

/** [BatonStore] in private shared preferences: the share attempt (body + key) and the BB session id; never a URL. */
class SharedPreferencesBatonStore(context: Context) : BatonStore {
    private val preferences = context.applicationContext.getSharedPreferences("baton", Context.MODE_PRIVATE)

    override fun loadPendingAttempt(catalogItemId: String): PendingAttempt? =
        preferences.getString("attempt.$catalogItemId", null)?.let { PendingAttempts.decode(it) }

    override fun savePendingAttempt(attempt: PendingAttempt) {
        preferences.edit().putString("attempt.${attempt.catalogItemId}", PendingAttempts.encode(attempt)).apply()
    }

    override fun discardPendingAttempt(catalogItemId: String) {
        preferences.edit().remove("attempt.$catalogItemId").apply()
    }

    override fun loadPendingSessionId(): String? = preferences.getString("bb.session", null)

    override fun savePendingSessionId(sessionId: String) {
        preferences.edit().putString("bb.session", sessionId).apply()
    }

    override fun clearPendingSessionId() {
        preferences.edit().remove("bb.session").apply()
    }
}

/**
 * The Android [BrowserPresenter]: the external browser for Chia, [BatonRedirectActivity] (which opens the Custom Tab
 * and catches the return) for BB, [BatonVerificationActivity] (the camera web view) for Privue. Every failed start
 * answers [BrowserCompletion.FailedToOpen]. Pass [launchVerification] to start the verification activity through an
 * `ActivityResultLauncher` registered with [VerificationJourneyContract] (then call [deliver] from its callback).
 */
class AndroidBrowserPresenter(
    private val context: Context,
    private val launchVerification: ((String) -> Unit)? = null
) : BrowserPresenter, Dismissible {
    @Volatile private var openTicket: String? = null

    override fun present(url: SensitiveUrl, style: BrowserStyle, completion: (BrowserCompletion) -> Unit) {
        when (style) {
            is BrowserStyle.ExternalBrowser -> completion(ExternalBrowser.open(context, url))
            is BrowserStyle.CustomTab -> start(url, style, completion, BatonRedirectActivity::class.java, null)
            is BrowserStyle.CameraWebView -> start(url, style, completion, BatonVerificationActivity::class.java, launchVerification)
        }
    }

    private fun start(
        url: SensitiveUrl, style: BrowserStyle, completion: (BrowserCompletion) -> Unit, activity: Class<*>, launcher: ((String) -> Unit)?
    ) {
        val ticket = BatonAndroid.presentations.registerExclusive(url, style, completion)
        if (ticket == null) {
            // Another journey is still on screen: never two at once.
            completion(BrowserCompletion.FailedToOpen)
            return
        }
        openTicket = ticket
        try {
            if (launcher != null) launcher(ticket)
            else {
                val intent = Intent(context, activity).putExtra(BatonAndroid.EXTRA_TICKET, ticket)
                if (context !is android.app.Activity) intent.addFlags(Intent.FLAG_ACTIVITY_NEW_TASK)
                context.startActivity(intent)
            }
        } catch (e: ActivityNotFoundException) {
            // The library's activity is missing from the merged manifest: a typed failure, never a crash.
            BatonAndroid.presentations.complete(ticket, BrowserCompletion.FailedToOpen)
        } catch (e: RuntimeException) {
            BatonAndroid.presentations.complete(ticket, BrowserCompletion.FailedToOpen)
        }
    }

    /** The result of [VerificationJourneyContract], when the app launches the activity itself. */
    fun deliver(result: JourneyResult) {
        BatonAndroid.presentations.complete(result.ticket, result.completion)
    }

    /** Closes the verification activity when the flow settled without it (the foreground check). */
    override fun dismiss() {
        BatonVerificationActivity.dismiss(openTicket)
    }
}

/** How the verification activity ended: its ticket and completion. */
class JourneyResult(val ticket: String?, val completion: BrowserCompletion)

/**
 * Starts [BatonVerificationActivity] for a ticket and reads how it ended (register it with
 * `registerForActivityResult` in any `ComponentActivity` or `Fragment`; no subclassing).
 */
class VerificationJourneyContract : ActivityResultContract<String, JourneyResult>() {
    override fun createIntent(context: Context, input: String): Intent =
        Intent(context, BatonVerificationActivity::class.java).putExtra(BatonAndroid.EXTRA_TICKET, input)

    override fun parseResult(resultCode: Int, intent: Intent?): JourneyResult {
        val ticket = intent?.getStringExtra(BatonAndroid.EXTRA_TICKET)
        val link = intent?.getStringExtra(BatonAndroid.EXTRA_LINK)
        val completion = when (intent?.getStringExtra(BatonAndroid.EXTRA_COMPLETION)) {
            "returned" -> if (link != null) BrowserCompletion.Returned(link) else BrowserCompletion.Failed
            "closed" -> BrowserCompletion.ClosedWithoutReturn
            "failed_to_open" -> BrowserCompletion.FailedToOpen
            // No result at all: the activity was killed or finished by something else.
            else -> BrowserCompletion.Failed
        }
        return JourneyResult(ticket, completion)
    }
}
