package baton.android

import android.app.Activity
import android.content.Intent
import android.os.Bundle
import baton.client.BrowserCompletion
import baton.client.CustomTabReturnTracker
import baton.client.PresentationRegistry

/**
 * BB's return (seed 002 "Android"), owned by the library: declared `singleTask` in the library manifest with the
 * https app-link filter (`autoVerify`, host and path from the `batonBbReturnHost` / `batonBbReturnPath`
 * placeholders) and the custom-scheme fallback (`batonBbReturnScheme`, no `autoVerify`). No app subclasses it.
 *
 * - Started by [AndroidBrowserPresenter] with a ticket: it opens the Custom Tab itself (the tab sits above it), so a
 *   failed launch ends the flow with `FailedToOpen`.
 * - `onNewIntent` with the return link: the tab's delivery ends the presentation (`Returned`), the tab closes.
 * - `onResume` after the tab without a link ("back" or the tab's close): `ClosedWithoutReturn`.
 * - `onCreate` with a return link and no open presentation (the process was restarted while the tab was open): the
 *   link is kept for `BankConnect.start(BatonAndroid.takeColdStartLink())` and the app's launcher activity starts.
 * - Rotation: only "tab launched" is saved (never the URL); the URL was taken once and is never opened again.
 */
class BatonRedirectActivity : Activity() {
    private val tracker = CustomTabReturnTracker()
    private var ticket: String? = null
    private var launched = false

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        ticket = savedInstanceState?.getString(BatonAndroid.EXTRA_TICKET) ?: intent?.getStringExtra(BatonAndroid.EXTRA_TICKET)
        launched = savedInstanceState?.getBoolean(STATE_LAUNCHED) ?: false
        if (launched) tracker.opened()
        if (ticket == null) {
            // Not started by the presenter: a return link from the OS, possibly into a cold start (or nothing at all).
            val link = returnLink(intent)
            if (link != null && !BatonAndroid.presentations.deliverLink(link)) launchApp()
            finish()
        }
    }

    override fun onResume() {
        super.onResume()
        val current = ticket ?: return
        if (!launched) {
            launched = true
            val url = BatonAndroid.presentations.takeUrl(current)
            if (url == null || !CustomTabs.open(this, url)) {
                end(BrowserCompletion.FailedToOpen)
                return
            }
            tracker.opened()
            return
        }
        // Back in this activity without a delivered link: the tab was closed (Custom Tabs have no close callback).
        if (tracker.resumed(System.currentTimeMillis()) != null) end(BrowserCompletion.ClosedWithoutReturn)
    }

    override fun onNewIntent(intent: Intent) {
        super.onNewIntent(intent)
        setIntent(intent)
        val link = returnLink(intent) ?: return
        if (tracker.linkDelivered(link, System.currentTimeMillis()) != null && ticket != null) {
            end(BrowserCompletion.Returned(link))
        } else {
            if (!BatonAndroid.presentations.deliverLink(link)) launchApp()
            if (ticket == null) finish()
        }
    }

    override fun onSaveInstanceState(outState: Bundle) {
        super.onSaveInstanceState(outState)
        outState.putString(BatonAndroid.EXTRA_TICKET, ticket)
        outState.putBoolean(STATE_LAUNCHED, launched)
    }

    override fun onDestroy() {
        // Finished by something other than a return or a close (the task was cleared): the journey ended anyway, and
        // the flow still asks the backend. A destroy to be recreated later (not finishing) keeps the presentation.
        if (isFinishing && ticket != null) end(BrowserCompletion.Failed)
        super.onDestroy()
    }

    private fun end(completion: BrowserCompletion) {
        // After a process death the flow that opened the tab is gone: its return link is kept for the next start.
        if (BatonAndroid.presentations.finish(ticket, completion) == PresentationRegistry.Handover.KEPT_FOR_COLD_START) launchApp()
        ticket = null
        finish()
    }

    /** Brings the app up (its launcher activity), which passes `BatonAndroid.takeColdStartLink()` to `BankConnect.start`. */
    private fun launchApp() {
        packageManager.getLaunchIntentForPackage(packageName)?.let {
            it.addFlags(Intent.FLAG_ACTIVITY_NEW_TASK)
            startActivity(it)
        }
    }

    private fun returnLink(intent: Intent?): String? = if (intent?.action == Intent.ACTION_VIEW) intent.dataString else null

    private companion object {
        const val STATE_LAUNCHED = "baton.launched"
    }
}
