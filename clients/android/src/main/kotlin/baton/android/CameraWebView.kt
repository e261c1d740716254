package baton.android

import android.Manifest
import android.app.Activity
import android.content.pm.PackageManager
import android.webkit.CookieManager
import android.webkit.PermissionRequest
import android.webkit.WebChromeClient
import android.webkit.WebResourceRequest
import android.webkit.WebView
import android.webkit.WebViewClient
import baton.client.CameraGrant
import baton.client.JourneyNavigation
import baton.client.Origins
import baton.client.RegisteredReturnUrl
import baton.client.SensitiveUrl

/**
 * Privue (seed 001 "Android"): a `WebView` that holds the `CAMERA` runtime permission, grants
 * `RESOURCE_VIDEO_CAPTURE` in `onPermissionRequest` to the journey's own origin only (never the microphone), keeps
 * DOM storage and cookies for the whole visit, and hands the registered return URL to the flow instead of loading it.
 *
 * The app must hold `CAMERA` before [present] (request it with `Activity.requestPermissions` first; a denied request
 * still opens the journey, whose camera step then asks again or fails on Privue's side).
 */
class CameraWebViewPresenter(
    private val activity: Activity,
    private val returnUrls: List<RegisteredReturnUrl>,
    /** Called once with the return URL (raw) when the journey navigates to it. */
    private val onReturn: (String) -> Unit
) {
    private var webView: WebView? = null

    /** Opens [url] unchanged, fragment included, in a new web view shown by [activity]. */
    fun present(url: SensitiveUrl) {
        val journeyOrigin = Origins.of(url.reveal()) ?: return
        val view = WebView(activity)
        val settings = view.settings
        settings.setJavaScriptEnabled(true)
        settings.setDomStorageEnabled(true)
        settings.setMediaPlaybackRequiresUserGesture(false)
        settings.setAllowFileAccess(false)
        settings.setAllowContentAccess(false)
        settings.setSupportMultipleWindows(false)
        settings.setJavaScriptCanOpenWindowsAutomatically(false)
        CookieManager.getInstance().setAcceptCookie(true)
        view.setWebChromeClient(CameraChromeClient(activity, journeyOrigin))
        view.setWebViewClient(
            ReturnCatchingClient(returnUrls) { returned ->
                dismiss()
                onReturn(returned)
            }
        )
        webView = view
        activity.setContentView(view)
        view.loadUrl(url.reveal())
    }

    /** Closes the web view (a return arrived, or the flow confirmed the outcome on foreground). */
    fun dismiss() {
        val view = webView ?: return
        webView = null
        view.stopLoading()
        view.destroy()
    }
}

/** Grants the camera per [CameraGrant]; denies everything else. */
class CameraChromeClient(private val activity: Activity, private val journeyOrigin: String) : WebChromeClient() {
    override fun onPermissionRequest(request: PermissionRequest) {
        val holdsCamera = activity.checkSelfPermission(Manifest.permission.CAMERA) == PackageManager.PERMISSION_GRANTED
        val origin = request.origin?.toString()
        val grant = CameraGrant.decide(journeyOrigin, origin, request.resources?.toList() ?: emptyList(), holdsCamera)
        if (grant.isEmpty()) request.deny() else request.grant(grant.toTypedArray())
    }
}

/** Loads https navigations (the journey, DigiLocker consent), catches the return URL, blocks the rest. */
class ReturnCatchingClient(
    private val returnUrls: List<RegisteredReturnUrl>,
    private val onReturn: (String) -> Unit
) : WebViewClient() {
    override fun shouldOverrideUrlLoading(view: WebView, request: WebResourceRequest): Boolean {
        val url = request.url.toString()
        return when (JourneyNavigation.decide(url, returnUrls)) {
            JourneyNavigation.ALLOW -> false
            JourneyNavigation.RETURN -> {
                onReturn(url)
                true
            }
            JourneyNavigation.BLOCK -> true
        }
    }
}
