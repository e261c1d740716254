package baton.android

import android.content.ActivityNotFoundException
import android.content.Context
import android.content.Intent
import android.os.Handler
import android.os.Looper
import android.webkit.CookieManager
import android.webkit.ValueCallback
import android.webkit.WebStorage
import androidx.activity.result.contract.ActivityResultContract
import baton.client.BatonStorage
import baton.client.BrowserCompletion
import baton.client.BrowserPresenter
import baton.client.BrowserStyle
import baton.client.Cancellable
import baton.client.Dismissible
import baton.client.FlowRunner
import baton.client.JourneyWebDataEraser
import baton.client.PresentationRegistry
import baton.client.SensitiveUrl
import java.util.concurrent.Executors

/** The library's process-wide state: the in-memory presentations its activities serve. */
object BatonAndroid {
    /** Journey URLs by opaque ticket, taken once; never written to an Intent or to disk. */
    val presentations = PresentationRegistry.shared

    /** The return link that cold-started the app through [BatonRedirectActivity], once (pass it to `BankConnect.start`). */
    fun takeColdStartLink(): String? = presentations.takePendingLink()

    internal const val EXTRA_TICKET = "baton.ticket"
    internal const val EXTRA_COMPLETION = "baton.completion"
    internal const val EXTRA_LINK = "baton.link"
}

/** How the verification activity ended, as its result intent's [BatonAndroid.EXTRA_COMPLETION] names it ([extra]). */
internal enum class JourneyEnd(val extra: String) {
    RETURNED("returned"), CLOSED("closed"), FAILED_TO_OPEN("failed_to_open"), FAILED("failed");

    companion object {
        /** How [completion] is named in the result intent. */
        fun of(completion: BrowserCompletion): JourneyEnd = when (completion) {
            is BrowserCompletion.Returned -> RETURNED
            BrowserCompletion.ClosedWithoutReturn -> CLOSED
            BrowserCompletion.FailedToOpen -> FAILED_TO_OPEN
            else -> FAILED
        }

        /** The end named [extra], or `null` (no result at all, or a name this library never writes). */
        fun of(extra: String?): JourneyEnd? = values().firstOrNull { it.extra == extra }
    }
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

/**
 * [BatonStorage] in the app's private shared preferences file `baton-user-data`: each user's share attempts (body +
 * key) and BB session id under that user's own prefix; never a URL.
 */
class SharedPreferencesBatonStorage(context: Context) : BatonStorage {
    private val preferences = context.applicationContext.getSharedPreferences("baton-user-data", Context.MODE_PRIVATE)

    override fun read(name: String): String? = preferences.getString(name, null)

    override fun write(name: String, value: String) {
        preferences.edit().putString(name, value).apply()
    }

    override fun remove(name: String) {
        preferences.edit().remove(name).apply()
    }

    override fun names(prefix: String): List<String> = preferences.all.keys.filter { it.startsWith(prefix) }
}

/**
 * Erases the app's WebView data at sign-out (seed 001: the next user must not open Privue's journey signed in as the
 * last one): every cookie (then written to disk with `flush`) and all web storage (`localStorage`, IndexedDB, Web SQL).
 * Android keeps one cookie jar and one web storage per app, so this clears the app's own web views too. Call on the
 * main thread (`removeAllCookies` answers on the caller's looper). Chia's external browser and BB's Custom Tab run in
 * the user's browser app, whose data no app can clear.
 */
class WebViewJourneyDataEraser : JourneyWebDataEraser {
    override fun eraseJourneyWebData() {
        val cookies = CookieManager.getInstance()
        cookies.removeAllCookies(ValueCallback<Boolean> { cookies.flush() })
        WebStorage.getInstance().deleteAllData()
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
        val completion = when (JourneyEnd.of(intent?.getStringExtra(BatonAndroid.EXTRA_COMPLETION))) {
            JourneyEnd.RETURNED -> if (link != null) BrowserCompletion.Returned(link) else BrowserCompletion.Failed
            JourneyEnd.CLOSED -> BrowserCompletion.ClosedWithoutReturn
            JourneyEnd.FAILED_TO_OPEN -> BrowserCompletion.FailedToOpen
            // No result at all: the activity was killed or finished by something else.
            JourneyEnd.FAILED, null -> BrowserCompletion.Failed
        }
        return JourneyResult(ticket, completion)
    }
}
