package baton.android

import android.app.Activity
import android.content.Context
import android.content.Intent
import android.os.Bundle
import baton.client.ConnectMachine
import baton.client.CustomTabReturnTracker

/**
 * The BB connect screen (seed 002 "Android"): declared `singleTask` with the https app-link intent filter
 * (`autoVerify`) and the custom-scheme fallback (no `autoVerify`); see clients/android/AndroidManifest.xml.
 *
 * The return link arrives through `onNewIntent` (the tab is closed by the system), or through `onCreate` when it
 * starts the app cold; "back in the app without a link" is detected in `onResume` (Custom Tabs have no close
 * callback). Every one of them ends the browser phase, and the flow asks the backend about the session id the
 * backend returned — kept in [PendingSessionStore] (an opaque id, never the hosted URL) until the backend settles it.
 *
 * Subclass it and perform the machine's actions in [perform] (backend requests, rendering, ticks).
 */
abstract class ConnectActivity : Activity() {
    private val tracker = CustomTabReturnTracker()
    private lateinit var machine: ConnectMachine
    private lateinit var store: PendingSessionStore

    /** The machine for this device (callback kind, registered return URLs, polling). */
    protected abstract fun makeMachine(storedPendingSessionId: String?): ConnectMachine

    /** Performs one action other than opening the tab and persisting the session id (done here). */
    protected abstract fun perform(action: ConnectMachine.Action)

    /** The clock the machine's times come from (injectable for tests; wall-clock milliseconds). */
    protected open fun nowMillis(): Long = System.currentTimeMillis()

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        store = PendingSessionStore(this)
        val kept = store.load()
        machine = makeMachine(kept)
        // A cold start by the return link confirms the kept session, before or without a restore; a cold start
        // without one, while a session was kept, restores it (the backend is asked either way).
        CustomTabReturnTracker.coldStart(returnLinkOf(intent), kept, nowMillis())?.let { send(it) }
    }

    override fun onNewIntent(intent: Intent) {
        super.onNewIntent(intent)
        setIntent(intent)
        tracker.linkDelivered(returnLinkOf(intent), nowMillis())?.let { send(it) }
    }

    override fun onResume() {
        super.onResume()
        tracker.resumed(nowMillis())?.let { send(it) }
    }

    /** Delivers [event] to the machine and performs its actions, in order. */
    protected fun send(event: ConnectMachine.Event) {
        for (action in machine.handle(event)) {
            when (action) {
                is ConnectMachine.Action.OpenCustomTab -> {
                    tracker.opened()
                    CustomTabsPresenter.open(this, action.url)
                }
                is ConnectMachine.Action.KeepPendingSession -> store.save(action.sessionId)
                is ConnectMachine.Action.ForgetPendingSession -> store.clear()
                else -> perform(action)
            }
        }
    }

    private fun returnLinkOf(intent: Intent?): String? =
        if (intent?.action == Intent.ACTION_VIEW) intent.dataString else null
}

/** The pending BB session id in private shared preferences: opaque and safe to keep; never the hosted URL. */
class PendingSessionStore(context: Context) {
    private val preferences = context.getSharedPreferences("baton.connect", Context.MODE_PRIVATE)

    fun load(): String? = preferences.getString(KEY, null)

    fun save(sessionId: String) {
        preferences.edit().putString(KEY, sessionId).apply()
    }

    fun clear() {
        preferences.edit().remove(KEY).apply()
    }

    private companion object {
        const val KEY = "pendingSessionId"
    }
}
