package baton.android

import android.Manifest
import android.app.Activity
import android.content.Intent
import android.content.pm.PackageManager
import android.os.Bundle
import android.view.View
import android.view.ViewGroup
import android.webkit.CookieManager
import android.webkit.PermissionRequest
import android.webkit.WebChromeClient
import android.webkit.WebResourceRequest
import android.webkit.WebView
import android.webkit.WebViewClient
import android.widget.Button
import android.widget.LinearLayout
import baton.client.BrowserCompletion
import baton.client.BrowserStyle
import baton.client.CameraGrant
import baton.client.JourneyNavigation
import baton.client.Origins
import baton.client.RegisteredReturnUrl
import baton.client.UrlPolicy
import baton.client.VerificationActivitySteps

/**
 * Privue's camera web view (seed 001 "Android"), a library activity no app subclasses: full screen, with a Close
 * control and back handling; `CAMERA` requested at runtime when missing; `RESOURCE_VIDEO_CAPTURE` granted to the
 * journey's own origin only (never the microphone); DOM storage and cookies on; the registered return URL caught
 * instead of loaded. Declared with `configChanges` so a rotation keeps the same web view; if the activity is recreated
 * anyway it restores the web view's saved state and never loads the single-use handoff again. The end is reported to
 * the flow (and set as the activity result read by [VerificationJourneyContract]).
 */
class BatonVerificationActivity : Activity() {
    private var ticket: String? = null
    private var webView: WebView? = null
    private var completed = false
    private var pendingHandoff: String? = null
    private var origin: String? = null

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        ticket = savedInstanceState?.getString(BatonAndroid.EXTRA_TICKET) ?: intent?.getStringExtra(BatonAndroid.EXTRA_TICKET)
        val registered = BatonAndroid.presentations.style(ticket) as? BrowserStyle.CameraWebView
        val saved = savedInstanceState?.getBoolean(STATE_LOADED) == true
        // The URL is taken only when it will be loaded now: a recreated activity never asks for it again.
        val url = if (saved || registered == null) null else BatonAndroid.presentations.takeUrl(ticket)
        origin = savedInstanceState?.getString(STATE_ORIGIN) ?: url?.let { Origins.of(it.reveal()) }
        val holdsCamera = checkSelfPermission(Manifest.permission.CAMERA) == PackageManager.PERMISSION_GRANTED
        when (VerificationActivitySteps.onCreate(saved, url != null && origin != null, holdsCamera)) {
            VerificationActivitySteps.Start.FAIL_TO_OPEN -> end(BrowserCompletion.FailedToOpen)
            VerificationActivitySteps.Start.RESTORE_STATE -> {
                val view = show(registered ?: return end(BrowserCompletion.Failed))
                if (view.restoreState(savedInstanceState!!) == null) end(BrowserCompletion.Failed)
            }
            VerificationActivitySteps.Start.REQUEST_CAMERA -> {
                show(registered!!)
                pendingHandoff = url!!.reveal()
                requestPermissions(arrayOf(Manifest.permission.CAMERA), CAMERA_REQUEST)
            }
            VerificationActivitySteps.Start.LOAD -> show(registered!!).loadUrl(url!!.reveal())
        }
    }

    override fun onRequestPermissionsResult(requestCode: Int, permissions: Array<String>, grantResults: IntArray) {
        if (requestCode != CAMERA_REQUEST) return
        // Granted or not, the journey opens: Privue's camera step asks again or offers its own fallback.
        val url = pendingHandoff ?: return
        pendingHandoff = null
        webView?.loadUrl(url)
    }

    private fun show(style: BrowserStyle.CameraWebView): WebView {
        val view = WebView(this)
        val settings = view.settings
        settings.setJavaScriptEnabled(true)
        settings.setDomStorageEnabled(true)
        settings.setMediaPlaybackRequiresUserGesture(false)
        settings.setAllowFileAccess(false)
        settings.setAllowContentAccess(false)
        settings.setSupportMultipleWindows(false)
        settings.setJavaScriptCanOpenWindowsAutomatically(false)
        CookieManager.getInstance().setAcceptCookie(true)
        view.setWebChromeClient(CameraChromeClient(this, origin))
        view.setWebViewClient(ReturnCatchingClient(style.returnUrls, style.urlPolicy) { link -> end(BrowserCompletion.Returned(link)) })
        val close = Button(this)
        close.setText("Close")
        close.setContentDescription("Close verification")
        close.setOnClickListener(View.OnClickListener { end(BrowserCompletion.ClosedWithoutReturn) })
        val layout = LinearLayout(this)
        layout.setOrientation(LinearLayout.VERTICAL)
        layout.addView(close, LinearLayout.LayoutParams(ViewGroup.LayoutParams.WRAP_CONTENT, ViewGroup.LayoutParams.WRAP_CONTENT))
        layout.addView(view, LinearLayout.LayoutParams(ViewGroup.LayoutParams.MATCH_PARENT, 0, 1f))
        setContentView(layout)
        webView = view
        live[ticket ?: ""] = this
        return view
    }

    override fun onBackPressed() {
        val view = webView
        when (VerificationActivitySteps.onBack(view?.canGoBack() == true)) {
            VerificationActivitySteps.Back.GO_BACK -> view?.goBack()
            VerificationActivitySteps.Back.CLOSE -> end(BrowserCompletion.ClosedWithoutReturn)
        }
    }

    override fun onSaveInstanceState(outState: Bundle) {
        super.onSaveInstanceState(outState)
        outState.putString(BatonAndroid.EXTRA_TICKET, ticket)
        outState.putString(STATE_ORIGIN, origin)
        val view = webView
        if (view != null) {
            view.saveState(outState)
            outState.putBoolean(STATE_LOADED, true)
        }
    }

    override fun onDestroy() {
        VerificationActivitySteps.onDestroy(isChangingConfigurations, completed)?.let {
            completed = true
            BatonAndroid.presentations.complete(ticket, it)
        }
        live.remove(ticket ?: "")
        webView?.destroy()
        webView = null
        super.onDestroy()
    }

    private fun end(completion: BrowserCompletion) {
        if (completed) return
        completed = true
        val result = Intent().putExtra(BatonAndroid.EXTRA_TICKET, ticket)
            .putExtra(BatonAndroid.EXTRA_COMPLETION, JourneyEnd.of(completion).extra)
        if (completion is BrowserCompletion.Returned) result.putExtra(BatonAndroid.EXTRA_LINK, completion.link)
        setResult(if (completion is BrowserCompletion.Returned) RESULT_OK else RESULT_CANCELED, result)
        BatonAndroid.presentations.complete(ticket, completion)
        webView?.stopLoading()
        finish()
    }

    companion object {
        private const val CAMERA_REQUEST = 4711
        private const val STATE_LOADED = "baton.webview"
        private const val STATE_ORIGIN = "baton.origin"
        private val live = java.util.concurrent.ConcurrentHashMap<String, BatonVerificationActivity>()

        /** Closes the activity showing [ticket] (the flow settled on the foreground check); it reports a close. */
        internal fun dismiss(ticket: String?) {
            live[ticket ?: return]?.end(BrowserCompletion.ClosedWithoutReturn)
        }
    }
}

/** Grants the camera per [CameraGrant] to the journey's origin (the first page's); denies everything else. */
class CameraChromeClient(private val activity: Activity, private val journeyOrigin: String?) : WebChromeClient() {
    override fun onPermissionRequest(request: PermissionRequest) {
        val holdsCamera = activity.checkSelfPermission(Manifest.permission.CAMERA) == PackageManager.PERMISSION_GRANTED
        val origin = journeyOrigin
        val grant = if (origin == null) emptyList()
        else CameraGrant.decide(origin, request.origin?.toString(), request.resources?.toList() ?: emptyList(), holdsCamera)
        if (grant.isEmpty()) request.deny() else request.grant(grant.toTypedArray())
    }
}

/** Loads journey navigations allowed by [urlPolicy] (the journey, DigiLocker consent), catches the return URL, blocks the rest. */
class ReturnCatchingClient(
    private val returnUrls: List<RegisteredReturnUrl>,
    private val urlPolicy: UrlPolicy,
    private val onReturn: (String) -> Unit
) : WebViewClient() {
    override fun shouldOverrideUrlLoading(view: WebView, request: WebResourceRequest): Boolean {
        val url = request.url.toString()
        return when (JourneyNavigation.decide(url, returnUrls, urlPolicy)) {
            JourneyNavigation.ALLOW -> false
            JourneyNavigation.RETURN -> {
                onReturn(url)
                true
            }
            JourneyNavigation.BLOCK -> true
        }
    }
}
