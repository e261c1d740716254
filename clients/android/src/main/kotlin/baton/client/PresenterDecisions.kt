package baton.client

/**
 * The bookkeeping a BB Custom Tab needs (seed 002 "Android"). Custom Tabs have no close callback, so "back in the app
 * without a return link" is detected in `onResume`; `onNewIntent` (or `onCreate` on a cold start) runs before
 * `onResume`, so a delivered link is seen first. An intent while the tab is open is the tab's delivery
 * ([ConnectMachine.Event.BrowserReturn]: it ends the browser phase whatever it says); any other intent is an OS link
 * ([ConnectMachine.Event.ReturnLink]).
 */
class CustomTabReturnTracker {
    /** Whether a Custom Tab is open and no delivery has been seen. */
    var browserOpen = false
        private set

    /** A Custom Tab was launched. */
    fun opened() {
        browserOpen = true
    }

    /** `onNewIntent` carrying [url]: its event, if any. */
    fun linkDelivered(url: String?, atMillis: Long): ConnectMachine.Event? {
        if (url == null) return null
        val fromBrowser = browserOpen
        browserOpen = false
        return if (fromBrowser) ConnectMachine.Event.BrowserReturn(url, atMillis) else ConnectMachine.Event.ReturnLink(url, atMillis)
    }

    /** `onResume`: the browser closed without a link when one was open and nothing was delivered. */
    fun resumed(atMillis: Long): ConnectMachine.Event? {
        if (!browserOpen) return null
        browserOpen = false
        return ConnectMachine.Event.BrowserClosed(atMillis)
    }

    companion object {
        /**
         * `onCreate` of a fresh process: with a session kept from before, a delivered link is the Custom Tab's (it
         * outlived the app) and no link means the app restarted mid-flow (restore); without one, a link is an OS link.
         */
        fun coldStart(url: String?, keptSessionId: String?, atMillis: Long): ConnectMachine.Event? = when {
            url != null && keptSessionId != null -> ConnectMachine.Event.BrowserReturn(url, atMillis)
            url != null -> ConnectMachine.Event.ReturnLink(url, atMillis)
            keptSessionId != null -> ConnectMachine.Event.Restored(null, atMillis)
            else -> null
        }
    }
}

/** An origin (`scheme://host[:port]`, ASCII-lowercased, default port omitted) of a strictly split URL. */
object Origins {
    /** The origin of [url], or `null` when it does not split strictly. */
    fun of(url: String): String? {
        val parts = RawUrl.parse(url) ?: return null
        if (parts.userinfo != null || parts.host.isEmpty()) return null
        val scheme = parts.normalizedScheme
        val port = parts.port
        val showPort = port != null && port != RawUrl.defaultPort(scheme)
        return "$scheme://${parts.normalizedHost}" + (if (showPort) ":$port" else "")
    }
}

/**
 * What Privue's camera web view grants in `WebChromeClient.onPermissionRequest` (seed 001 "Android"):
 * the camera only (`RESOURCE_VIDEO_CAPTURE`), only to the journey's own origin, only while the app holds the
 * `CAMERA` runtime permission. The microphone and every other resource are never granted.
 */
object CameraGrant {
    const val VIDEO_CAPTURE = "android.webkit.resource.VIDEO_CAPTURE"

    /** The resources to grant (empty: deny the request). */
    fun decide(journeyOrigin: String, requestOrigin: String?, resources: List<String>, appHoldsCamera: Boolean): List<String> {
        val origin = requestOrigin?.let { Origins.of(it) } ?: return emptyList()
        if (!appHoldsCamera || origin != journeyOrigin || VIDEO_CAPTURE !in resources) return emptyList()
        return listOf(VIDEO_CAPTURE)
    }
}

/** What the Privue web view does with a navigation. */
enum class JourneyNavigation {
    /** Load it in the same web view (the journey, and the DigiLocker consent round trip on another https origin). */
    ALLOW,
    /** The registered return URL: stop loading, close the web view, hand the URL to the flow. */
    RETURN,
    /** Anything else (custom schemes, intent:, plain http, file:, javascript:): refuse. */
    BLOCK;

    companion object {
        /** Decides for [url] given the registered Privue return URLs. */
        fun decide(url: String, returnUrls: List<RegisteredReturnUrl>, policy: UrlPolicy = UrlPolicy.PRODUCTION): JourneyNavigation {
            val parts = RawUrl.parse(url) ?: return BLOCK
            if (returnUrls.any { it.matches(parts) }) return RETURN
            return if (policy.accepts(url)) ALLOW else BLOCK
        }
    }
}
