package baton.client

import java.net.HttpURLConnection
import java.net.URI
import java.net.URL
import java.net.URLEncoder

/** A transport that records every request (and answers from [respond], or from [inner]): the SDK's own client under test. */
class RecordingTransport(
    private val inner: HttpTransport? = null,
    private val respond: ((HttpRequest) -> HttpResponse)? = null
) : HttpTransport {
    private val sent = java.util.Collections.synchronizedList(mutableListOf<HttpRequest>())
    private val answers = java.util.Collections.synchronizedList(mutableListOf<String>())

    /** Every request, in order. */
    val requests: List<HttpRequest> get() = synchronized(sent) { sent.toList() }

    /** `METHOD /path → status [code]` for each request, in order. */
    val lines: List<String> get() = synchronized(answers) { answers.toList() }

    /** Called after each answer (the walk's transcript). */
    @Volatile var observer: ((String) -> Unit)? = null

    override fun send(request: HttpRequest): HttpResponse {
        sent += request
        try {
            val response = respond?.invoke(request) ?: inner?.send(request) ?: throw TransportException(TransportFailure.CONNECT)
            val code = if (response.status >= 400) HttpBackendClient.problemCode(response.body) else null
            val retry = response.header("Retry-After")
            val line = "$request → ${response.status}" + (code?.let { " $it" } ?: "") + (retry?.let { " (Retry-After $it)" } ?: "")
            answers += line
            observer?.invoke(line)
            return response
        } catch (e: TransportException) {
            val line = "$request → no response (${e.kind.wire})"
            answers += line
            observer?.invoke(line)
            throw e
        }
    }
}

/** What the scripted user does in a journey the [HeadlessPresenter] opens (BatonHeadless's `HeadlessOutcome`). */
sealed class HeadlessOutcome {
    data class SubmitVerification(val status: String) : HeadlessOutcome()
    data class CompleteConnect(val resultCode: String, val error: String? = null) : HeadlessOutcome()
    object Close : HeadlessOutcome()
}

/** One journey the [HeadlessPresenter] presented. Printing shows scheme and host only. */
class HeadlessPresentation(val style: String, val origin: String, val firstPage: String?, val signIn: String?, val completion: BrowserCompletion) {
    override fun toString() = "$style $origin/… [${firstPage ?: "no page"}] → $completion"
}

/**
 * A [BrowserPresenter] with no screen, for the JVM journey walk (BatonHeadless's `HeadlessPresenter`): it really loads
 * the hosted journey from the provider sandbox, follows redirects itself (each hop seen), does what the scripted
 * user does there, and reports the return link (or a close). Chia: loaded once, reported as handed to the system.
 * BB: ends only on a redirect matching a registered return URL. Privue: loads the URL without its fragment, redeems
 * `#ticket` as the page's script does, falls back to the mobile-number form when it is refused.
 */
class HeadlessPresenter(private val mobileNumber: String = "+15550100") : BrowserPresenter {
    private val steps = java.util.Collections.synchronizedList(mutableListOf<Pair<HeadlessOutcome, (() -> Unit)?>>())
    private val done = java.util.Collections.synchronizedList(mutableListOf<HeadlessPresentation>())

    /** Every journey presented so far. */
    val presentations: List<HeadlessPresentation> get() = synchronized(done) { done.toList() }

    /** Scripts the next BB or Privue journey: [outcome], and [beforeLoading] run just before the page loads. */
    fun script(outcome: HeadlessOutcome, beforeLoading: (() -> Unit)? = null) {
        steps += outcome to beforeLoading
    }

    override fun present(url: SensitiveUrl, style: BrowserStyle, completion: (BrowserCompletion) -> Unit) {
        val step = if (style is BrowserStyle.ExternalBrowser || steps.isEmpty()) null else steps.removeAt(0)
        Thread {
            step?.second?.invoke()
            val browser = HeadlessBrowser()
            val result = try {
                when (style) {
                    is BrowserStyle.ExternalBrowser -> external(url, browser)
                    is BrowserStyle.CustomTab -> customTab(url, style, step?.first ?: HeadlessOutcome.Close, browser)
                    is BrowserStyle.CameraWebView -> cameraWebView(url, style, step?.first ?: HeadlessOutcome.Close, browser)
                }
            } catch (e: Exception) {
                Triple<String?, String?, BrowserCompletion>(null, null, BrowserCompletion.Failed)
            }
            val origin = Origins.of(url.reveal()) ?: "?"
            done += HeadlessPresentation(style.toString(), origin, result.first, result.second, result.third)
            completion(result.third)
        }.start()
    }

    private fun external(url: SensitiveUrl, browser: HeadlessBrowser): Triple<String?, String?, BrowserCompletion> {
        val page = browser.load("GET", url.reveal()) { true }
        return Triple(page?.marker, null, BrowserCompletion.HandedToSystem)
    }

    private fun customTab(url: SensitiveUrl, style: BrowserStyle.CustomTab, outcome: HeadlessOutcome, browser: HeadlessBrowser): Triple<String?, String?, BrowserCompletion> {
        val catches = { link: String -> RawUrl.parse(link)?.let { parts -> style.returnUrls.any { it.matches(parts) } } ?: false }
        val page = browser.load("GET", url.reveal()) { !catches(it) } ?: return Triple(null, null, BrowserCompletion.ClosedWithoutReturn)
        if (outcome !is HeadlessOutcome.CompleteConnect) return Triple(page.marker, null, BrowserCompletion.ClosedWithoutReturn)
        val id = HeadlessBrowser.firstMatch("action=\"([^\"/]+)/complete\"", page.body)
            ?: return Triple(page.marker, null, BrowserCompletion.ClosedWithoutReturn)
        val body = (if (outcome.error != null) "{\"error\":${Json.quote(outcome.error)}," else "{") + "\"resultCode\":${Json.quote(outcome.resultCode)}}"
        val answer = browser.send("POST", HeadlessBrowser.resolve(page.url, "/_sandbox/journeys/$id/complete"), body.toByteArray(), "application/json")
        val redirect = answer?.takeIf { it.status == 200 }?.let {
            try { org.json.JSONObject(it.body).optString("redirectUrl", "") } catch (e: org.json.JSONException) { "" }
        }
        if (redirect.isNullOrEmpty()) return Triple(page.marker, null, BrowserCompletion.ClosedWithoutReturn)
        return Triple(page.marker, null, if (catches(redirect)) BrowserCompletion.Returned(redirect) else BrowserCompletion.ClosedWithoutReturn)
    }

    private fun cameraWebView(url: SensitiveUrl, style: BrowserStyle.CameraWebView, outcome: HeadlessOutcome, browser: HeadlessBrowser): Triple<String?, String?, BrowserCompletion> {
        val intercepts = { link: String -> JourneyNavigation.decide(link, style.returnUrls, style.urlPolicy) == JourneyNavigation.RETURN }
        val full = url.reveal()
        val hash = full.indexOf('#')
        val target = if (hash >= 0) full.substring(0, hash) else full
        val ticket = if (hash >= 0) HeadlessBrowser.firstMatch("(?:^|&)ticket=([^&]*)", full.substring(hash + 1)) else null
        val first = browser.load("GET", target) { !intercepts(it) } ?: return Triple(null, null, BrowserCompletion.ClosedWithoutReturn)
        var page = first
        var how: String? = null
        if (first.marker == "privue-sign-in") {
            val signedIn = signIn(first, ticket, intercepts, browser) ?: return Triple(first.marker, null, BrowserCompletion.ClosedWithoutReturn)
            page = signedIn.first
            how = signedIn.second
        }
        val closed = Triple<String?, String?, BrowserCompletion>(first.marker, how, BrowserCompletion.ClosedWithoutReturn)
        if (outcome !is HeadlessOutcome.SubmitVerification || page.marker != "privue-journey") return closed
        val submit = HeadlessBrowser.formAction("/submit", page) ?: return closed
        val submitted = browser.send("POST", submit, HeadlessBrowser.form(listOf("status" to outcome.status)), "application/x-www-form-urlencoded") ?: return closed
        val location = submitted.location
        if (submitted.status !in 300..399 || location == null) return closed
        val link = HeadlessBrowser.resolve(page.url, location)
        return if (intercepts(link)) Triple(first.marker, how, BrowserCompletion.Returned(link)) else closed
    }

    private fun signIn(page: HeadlessBrowser.Page, ticket: String?, intercepts: (String) -> Boolean, browser: HeadlessBrowser): Pair<HeadlessBrowser.Page, String>? {
        var reason = "ticket_missing"
        val endpoint = HeadlessBrowser.firstMatch("fetch\\('([^']+)'", page.body)
        if (ticket != null && endpoint != null) {
            val decoded = java.net.URLDecoder.decode(ticket, "UTF-8")
            val answer = browser.send("POST", HeadlessBrowser.resolve(page.url, endpoint), "{\"ticket\":${Json.quote(decoded)}}".toByteArray(), "application/json")
            val o = try { answer?.let { org.json.JSONObject(it.body) } } catch (e: org.json.JSONException) { null }
            if (o?.opt("signedIn") == true) {
                val reloaded = browser.load("GET", page.url) { !intercepts(it) } ?: return null
                return reloaded to "ticket"
            }
            reason = o?.opt("reason") as? String ?: "redeem_failed"
        }
        val action = HeadlessBrowser.formAction("/sign-in", page) ?: return null
        val fields = mutableListOf("mobile" to mobileNumber)
        HeadlessBrowser.firstMatch("name=\"verification_id\" value=\"([^\"]*)\"", page.body)?.let { fields += "verification_id" to it }
        if (ticket != null) fields += "ticket" to ticket
        val signedIn = browser.load("POST", action, HeadlessBrowser.form(fields), "application/x-www-form-urlencoded") { !intercepts(it) } ?: return null
        return signedIn to "mobile number ($reason)"
    }
}

/** One headless browser: its own cookies, no redirect followed by the HTTP layer, the little HTML reading needed. */
class HeadlessBrowser {
    class Page(val url: String, val status: Int, val location: String?, val body: String) {
        val marker: String? get() = firstMatch("data-page=\"([^\"]+)\"", body)
    }

    private val cookies = LinkedHashMap<String, String>()

    /** One request, no redirect followed; `null` when no response arrived. */
    fun send(method: String, url: String, body: ByteArray? = null, contentType: String? = null): Page? = try {
        val connection = URL(url).openConnection() as HttpURLConnection
        connection.instanceFollowRedirects = false
        connection.useCaches = false
        connection.requestMethod = method
        connection.connectTimeout = 15_000
        connection.readTimeout = 15_000
        if (cookies.isNotEmpty()) connection.setRequestProperty("Cookie", cookies.entries.joinToString("; ") { "${it.key}=${it.value}" })
        if (body != null) {
            connection.doOutput = true
            if (contentType != null) connection.setRequestProperty("Content-Type", contentType)
            connection.setFixedLengthStreamingMode(body.size)
            connection.outputStream.use { it.write(body) }
        }
        val status = connection.responseCode
        connection.getHeaderField("Set-Cookie")?.let { keep(it) }
        val stream = if (status >= 400) connection.errorStream else connection.inputStream
        val text = stream?.use { String(it.readBytes(), Charsets.UTF_8) } ?: ""
        Page(url, status, connection.getHeaderField("Location"), text).also { connection.disconnect() }
    } catch (e: java.io.IOException) {
        null
    }

    /** Sends, then follows 3xx with GET while [follow] allows the target (a return link is not followed). */
    fun load(method: String, url: String, body: ByteArray? = null, contentType: String? = null, follow: (String) -> Boolean): Page? {
        var page = send(method, url, body, contentType)
        var hops = 0
        while (true) {
            val current = page ?: return null
            val location = current.location
            if (current.status !in 300..399 || location == null || hops >= 5) return current
            val next = resolve(current.url, location)
            if (!follow(next)) return current
            hops += 1
            page = send("GET", next)
        }
    }

    private fun keep(header: String) {
        val pair = header.split(';')[0]
        val equals = pair.indexOf('=')
        if (equals > 0) cookies[pair.substring(0, equals).trim()] = pair.substring(equals + 1)
    }

    companion object {
        fun firstMatch(pattern: String, text: String): String? =
            Regex(pattern).find(text)?.groupValues?.getOrNull(1)?.replace("&amp;", "&")

        fun resolve(base: String, reference: String): String = URI(base).resolve(reference).toString()

        fun formAction(suffix: String, page: Page): String? =
            firstMatch("action=\"([^\"]*" + Regex.escape(suffix) + ")\"", page.body)?.let { resolve(page.url, it) }

        fun form(fields: List<Pair<String, String>>): ByteArray =
            fields.joinToString("&") { "${it.first}=${URLEncoder.encode(it.second, "UTF-8").replace("+", "%20")}" }.toByteArray()
    }
}
