package baton.client

import org.json.JSONException
import org.json.JSONObject
import org.json.JSONTokener
import java.io.ByteArrayOutputStream
import java.io.IOException
import java.io.InputStream
import java.net.ConnectException
import java.net.HttpURLConnection
import java.net.NoRouteToHostException
import java.net.SocketTimeoutException
import java.net.URL
import java.net.UnknownHostException
import javax.net.ssl.SSLException

/** One request to the partner backend. Printing it shows the method and path only: never a header, token or body. */
class HttpRequest(val method: String, val url: String, val headers: Map<String, String>, val body: ByteArray?) {
    /** The header [name] (case-insensitive), if set. */
    fun header(name: String): String? = headers.entries.firstOrNull { it.key.equals(name, ignoreCase = true) }?.value

    /** The path of [url] (no query). */
    val path: String get() = RawUrl.parse(url)?.path ?: "?"

    override fun toString(): String = "$method $path"
}

/** One HTTP response: status, headers (names lowercased) and body bytes. */
class HttpResponse(val status: Int, headers: Map<String, String>, val body: ByteArray) {
    val headers: Map<String, String> = headers.mapKeys { RawUrl.asciiLowercase(it.key) }

    /** The header [name] (case-insensitive), if present. */
    fun header(name: String): String? = headers[RawUrl.asciiLowercase(name)]

    override fun toString(): String = "HTTP $status"
}

/** No HTTP response arrived, for the reason [kind] (the server may or may not have acted). */
class TransportException(val kind: TransportFailure, cause: Throwable? = null) : IOException("backend unreachable (${kind.wire})", cause)

/** Why no HTTP response arrived; [wire] is its name in the shared vectors and in log lines. */
enum class TransportFailure(val wire: String) {
    /** No connection (refused, unknown host, no route). */
    CONNECT("connect"),
    TIMEOUT("timeout"),
    /** The connection broke, or the answer was not HTTP. */
    RESET("reset"),
    TLS("tls");

    companion object {
        /** The failure named [wire], or `null` for any other name. */
        fun of(wire: String): TransportFailure? = values().firstOrNull { it.wire == wire }
    }
}

/**
 * The seam every backend call goes through: one request in, one response out (swift-openapi's `ClientTransport`,
 * AppAuth's `ConnectionBuilder`). Plug in OkHttp by implementing it; [HttpUrlConnectionTransport] is the default.
 * A transport must not follow redirects and must not cache: answers carry journey URLs.
 */
interface HttpTransport {
    /** Sends [request]; throws [TransportException] when no HTTP response arrived. Blocking: never call on the main thread. */
    @Throws(TransportException::class)
    fun send(request: HttpRequest): HttpResponse
}

/** Opens the connection for a URL (AppAuth's `ConnectionBuilder`): the place to pin certificates or set a proxy. */
interface ConnectionBuilder {
    @Throws(IOException::class)
    fun openConnection(url: URL): HttpURLConnection
}

/** `url.openConnection()`, nothing else. */
object DefaultConnectionBuilder : ConnectionBuilder {
    override fun openConnection(url: URL): HttpURLConnection = url.openConnection() as HttpURLConnection
}

/**
 * [HttpTransport] over `HttpURLConnection`: no cache, no redirects followed, fixed-length streaming for bodies (so the
 * platform never silently resends a POST), [timeoutMillis] for connect and read.
 */
class HttpUrlConnectionTransport @JvmOverloads constructor(
    private val connections: ConnectionBuilder = DefaultConnectionBuilder,
    private val timeoutMillis: Int = 30_000
) : HttpTransport {
    override fun send(request: HttpRequest): HttpResponse {
        var connection: HttpURLConnection? = null
        try {
            connection = connections.openConnection(URL(request.url))
            connection.requestMethod = request.method
            connection.useCaches = false
            connection.instanceFollowRedirects = false
            connection.connectTimeout = timeoutMillis
            connection.readTimeout = timeoutMillis
            for ((name, value) in request.headers) connection.setRequestProperty(name, value)
            val body = request.body
            if (body != null) {
                connection.doOutput = true
                connection.setFixedLengthStreamingMode(body.size)
                connection.outputStream.use { it.write(body) }
            }
            val status = connection.responseCode
            if (status < 0) throw TransportException(TransportFailure.RESET)
            val headers = LinkedHashMap<String, String>()
            for ((name, values) in connection.headerFields) {
                if (name != null && values != null && values.isNotEmpty()) headers[name] = values.joinToString(", ")
            }
            val stream: InputStream? = if (status >= 400) connection.errorStream else connection.inputStream
            val bytes = stream?.use { readAll(it) } ?: ByteArray(0)
            return HttpResponse(status, headers, bytes)
        } catch (e: TransportException) {
            throw e
        } catch (e: IOException) {
            throw TransportException(kindOf(e), e)
        } finally {
            connection?.disconnect()
        }
    }

    companion object {
        /** The transport-failure kind of [error]. */
        fun kindOf(error: IOException): TransportFailure = when (error) {
            is SocketTimeoutException -> TransportFailure.TIMEOUT
            is SSLException -> TransportFailure.TLS
            is ConnectException, is UnknownHostException, is NoRouteToHostException -> TransportFailure.CONNECT
            else -> TransportFailure.RESET
        }

        private fun readAll(stream: InputStream): ByteArray {
            val out = ByteArrayOutputStream()
            val buffer = ByteArray(8192)
            while (true) {
                val n = stream.read(buffer)
                if (n < 0) break
                out.write(buffer, 0, n)
            }
            return out.toByteArray()
        }
    }
}

/** The problem codes the backend emits (docs/CONTRACTS.md §2 "Problem codes"); a code not listed here is kept raw. */
object ProblemCode {
    const val IDEMPOTENCY_KEY_INVALID = "idempotency_key_invalid"
    const val INVALID_REQUEST = "invalid_request"
    const val UNAUTHORIZED = "unauthorized"
    const val NOT_FOUND = "not_found"
    const val UNKNOWN_WORKFLOW = "unknown_workflow"
    const val PROJECTION_CHANGED = "projection_changed"
    const val HANDOFF_EXPIRED = "handoff_expired"
    const val IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    const val HANDOFF_REJECTED = "handoff_rejected"
    const val CALLBACK_UNAVAILABLE = "callback_unavailable"
    const val REQUEST_REJECTED = "request_rejected"
    const val PROVIDER_RATE_LIMITED = "provider_rate_limited"
    const val RATE_LIMITED = "rate_limited"
    const val INTERNAL_ERROR = "internal_error"
    const val PROVIDER_UNAVAILABLE = "provider_unavailable"
    const val PROVIDER_REJECTED = "provider_rejected"
    const val PROVIDER_TIMEOUT = "provider_timeout"
    const val REQUEST_IN_PROGRESS = "request_in_progress"
    const val CATALOG_UNAVAILABLE = "catalog_unavailable"
    const val SERVICE_UNAVAILABLE = "service_unavailable"

    /** Every code above. */
    val KNOWN: Set<String> = setOf(
        IDEMPOTENCY_KEY_INVALID, INVALID_REQUEST, UNAUTHORIZED, NOT_FOUND, UNKNOWN_WORKFLOW, PROJECTION_CHANGED,
        HANDOFF_EXPIRED, IDEMPOTENCY_KEY_REUSED, HANDOFF_REJECTED, CALLBACK_UNAVAILABLE, REQUEST_REJECTED,
        PROVIDER_RATE_LIMITED, RATE_LIMITED, INTERNAL_ERROR, PROVIDER_UNAVAILABLE, PROVIDER_REJECTED, PROVIDER_TIMEOUT,
        REQUEST_IN_PROGRESS, CATALOG_UNAVAILABLE, SERVICE_UNAVAILABLE
    )
}

/**
 * A failed call to the partner backend (BatonClient's `BackendError`): its category, status and problem code, never
 * the request, a URL, a token or a body.
 */
sealed class BackendError {
    /** No HTTP response arrived. */
    data class Transport(val kind: TransportFailure) : BackendError()

    /** A non-2xx response; [problemCode] is the problem+json `code` (raw, also when unknown), [retryAfter] raw. */
    data class Http(val status: Int, val problemCode: String?, val retryAfter: String?) : BackendError()

    /** A 2xx whose body did not decode as the contract says (a journey URL the policy refuses included). */
    object MalformedResponse : BackendError() {
        override fun toString() = "MalformedResponse"
    }

    /** The app has no token to send (signed out). */
    object NotAuthenticated : BackendError() {
        override fun toString() = "NotAuthenticated"
    }

    /** The share-request outcome this failure amounts to, for [RetryDecision.classify]. */
    val shareOutcome: ShareOutcome
        get() = when (this) {
            is Transport -> ShareOutcome.Transport(kind)
            is Http -> ShareOutcome.Response(status, retryAfter)
            // A 2xx that did not decode may still have created the session: retrying unchanged is the safe reading.
            is MalformedResponse -> ShareOutcome.Transport(TransportFailure.RESET)
            is NotAuthenticated -> ShareOutcome.Response(401, null)
        }

    /** Whether retrying the same request may succeed, per the shared rule ([nowMillis] resolves an HTTP-date). */
    fun retryDecision(nowMillis: Long): RetryDecision = RetryDecision.classify(shareOutcome, nowMillis)

    /** The coarse category the connect and verification machines use (a 401 ends polling like a rejection). */
    val failure: RequestFailure
        get() = if (retryDecision(0) is RetryDecision.Retry) RequestFailure.RETRYABLE else RequestFailure.DEFINITIVE

    /** What failed, for a log line: category, status and code only. */
    val description: String
        get() = when (this) {
        is Transport -> "backend unreachable (${kind.wire})"
        is Http -> "backend answered $status" + (problemCode?.let { " ($it)" } ?: "")
        is MalformedResponse -> "backend response did not match the contract"
        is NotAuthenticated -> "no app token available"
    }
}

/** Thrown by [BackendClient] calls; [error] says what failed. Its message never contains a URL or token. */
class BackendException(val error: BackendError) : Exception(error.description)

/** `POST /v2/handoff-sessions` → `{"url","expiresAt"}`. */
class HandoffSession(val url: SensitiveUrl, val expiresAt: String?) {
    override fun toString() = "HandoffSession(url=$url, expiresAt=$expiresAt)"
}

/** `POST /v2/verification-handoffs` → `{"url","expiresInSeconds"}`; the URL keeps its `#ticket` fragment. */
class VerificationHandoff(val url: SensitiveUrl, val expiresInSeconds: Int?) {
    override fun toString() = "VerificationHandoff(url=$url, expiresInSeconds=$expiresInSeconds)"
}

/** `GET /v2/verifications/{workflow}`: authoritative. */
data class VerificationState(val verificationId: String, val status: String) {
    /** Whether the app stops polling (any status but created, pending, opened, in_progress). */
    val isSettled: Boolean get() = status !in VerificationMachine.IN_PROGRESS
}

/** `POST /v2/connect-sessions` → `{"sessionId","hostedUrl","callback"}`: the callback the backend asked BB for. */
data class ConnectSession(val sessionId: String, val hostedUrl: SensitiveUrl, val callbackKind: CallbackKind)

/** Which BB callback a device catches; [wire] is its name in `BatonConfiguration.bbCallbackKind` and on the wire. */
enum class CallbackKind(val wire: String) {
    /** The verified https app link. */
    HTTPS("https"),
    /** The custom-scheme fallback. */
    CUSTOM_SCHEME("custom-scheme");

    companion object {
        /** The kind named [wire], or `null` for any other name. */
        fun of(wire: String): CallbackKind? = values().firstOrNull { it.wire == wire }
    }
}

/** `GET /v2/connect-sessions/{sessionId}`: the session's [status]. */
data class ConnectSessionState(val sessionId: String, val status: ConnectSessionStatus, val connectionId: String?, val error: String?)

/** A BB connect session's status as the backend reports it ([wire]); any other status is a malformed response. */
enum class ConnectSessionStatus(val wire: String) {
    PENDING("pending"), OK("ok"), ERROR("error"), CANCELLED("cancelled"), EXPIRED("expired");

    companion object {
        /** The status named [wire], or `null` for any other name. */
        fun of(wire: String): ConnectSessionStatus? = values().firstOrNull { it.wire == wire }
    }
}

/** The partner backend's app-facing API (docs/CONTRACTS.md §2). Every call blocks: run it off the main thread. */
interface BackendClient {
    /** `GET /v2/catalog`: the user's cards; a card that does not decode strictly is left out. */
    @Throws(BackendException::class)
    fun catalog(): List<CatalogCard>

    /** `POST /v2/handoff-sessions` with `Idempotency-Key: attempt.key` and exactly `attempt.bodyJson()`. */
    @Throws(BackendException::class)
    fun createHandoffSession(attempt: PendingAttempt): HandoffSession

    /** `POST /v2/verification-handoffs` `{"workflow"}`: a fresh single-use handoff. */
    @Throws(BackendException::class)
    fun createVerificationHandoff(workflow: String): VerificationHandoff

    /** `GET /v2/verifications/{workflow}`. */
    @Throws(BackendException::class)
    fun verification(workflow: String): VerificationState

    /** `POST /v2/connect-sessions` `{"callback": "https" | "custom-scheme"}`. */
    @Throws(BackendException::class)
    fun createConnectSession(callbackKind: CallbackKind): ConnectSession

    /** `GET /v2/connect-sessions/{sessionId}`. */
    @Throws(BackendException::class)
    fun connectSession(sessionId: String): ConnectSessionState
}

/**
 * The production [BackendClient] (BatonClient's `URLSessionBackendClient`): the six `/v2` routes over an
 * [HttpTransport]. Every request carries `Authorization: Bearer <token>` from [tokenProvider] (asked before each call;
 * `null` = signed out) and `Accept: application/json, application/problem+json`; the share carries
 * `Idempotency-Key`. A non-2xx becomes [BackendError.Http] with the status, the problem+json `code` and
 * `Retry-After`; journey URLs in answers are accepted under [urlPolicy] and kept as [SensitiveUrl].
 */
class HttpBackendClient @JvmOverloads constructor(
    baseUrl: String,
    private val tokenProvider: () -> String?,
    private val transport: HttpTransport = HttpUrlConnectionTransport(),
    private val urlPolicy: UrlPolicy = UrlPolicy.PRODUCTION
) : BackendClient {
    /** The backend origin without trailing slashes. */
    val baseUrl: String = baseUrl.trimEnd('/')

    init {
        if (!urlPolicy.accepts(this.baseUrl)) {
            // The codes TypeScript and Dart use for the same refusal.
            throw BatonConfigurationException(
                if (urlPolicy.allowsLoopbackHttp) "backend_url_not_https_or_loopback" else "backend_url_not_https"
            )
        }
    }

    override fun catalog(): List<CatalogCard> {
        val body = decodeObject(send("GET", listOf("v2", "catalog")))
        val items = body.opt("items") as? org.json.JSONArray ?: throw BackendException(BackendError.MalformedResponse)
        return (0 until items.length()).mapNotNull { CatalogCard.decode(items.opt(it), urlPolicy) }
    }

    override fun createHandoffSession(attempt: PendingAttempt): HandoffSession {
        val body = decodeObject(
            send("POST", listOf("v2", "handoff-sessions"), attempt.bodyJson(), mapOf("Idempotency-Key" to attempt.key.value))
        )
        val expiresAt = body.opt("expiresAt")
        if (expiresAt != null && expiresAt != JSONObject.NULL && expiresAt !is String) malformed()
        return HandoffSession(journeyUrl(body, "url"), expiresAt as? String)
    }

    override fun createVerificationHandoff(workflow: String): VerificationHandoff {
        val body = decodeObject(send("POST", listOf("v2", "verification-handoffs"), "{\"workflow\":${Json.quote(workflow)}}"))
        val expires = body.opt("expiresInSeconds")
        val seconds = when (expires) {
            null, JSONObject.NULL -> null
            is Int -> expires
            else -> malformed()
        }
        return VerificationHandoff(journeyUrl(body, "url"), seconds)
    }

    override fun verification(workflow: String): VerificationState {
        val body = decodeObject(send("GET", listOf("v2", "verifications", workflow)))
        return VerificationState(string(body, "verificationId"), string(body, "status"))
    }

    override fun createConnectSession(callbackKind: CallbackKind): ConnectSession {
        val body = decodeObject(send("POST", listOf("v2", "connect-sessions"), "{\"callback\":${Json.quote(callbackKind.wire)}}"))
        val sessionId = string(body, "sessionId")
        if (sessionId.isEmpty()) malformed()
        val hosted = journeyUrl(body, "hostedUrl")
        val kind = when (val callback = body.opt("callback")) {
            is String -> callback
            is JSONObject -> string(callback, "kind")
            else -> malformed()
        }
        return ConnectSession(sessionId, hosted, CallbackKind.of(kind) ?: malformed())
    }

    override fun connectSession(sessionId: String): ConnectSessionState {
        val body = decodeObject(send("GET", listOf("v2", "connect-sessions", sessionId)))
        val status = ConnectSessionStatus.of(string(body, "status")) ?: malformed()
        return ConnectSessionState(string(body, "sessionId"), status, optionalString(body, "connectionId"), optionalString(body, "error"))
    }

    /** The request for [method] on [path] (each segment percent-encoded as one opaque segment), without sending it. */
    fun request(method: String, path: List<String>, body: String?, headers: Map<String, String>, token: String): HttpRequest {
        val url = StringBuilder(baseUrl)
        for (segment in path) url.append('/').append(percentEncode(segment))
        val all = LinkedHashMap<String, String>()
        all["Authorization"] = "Bearer $token"
        all["Accept"] = "application/json, application/problem+json"
        if (body != null) all["Content-Type"] = "application/json"
        all.putAll(headers)
        return HttpRequest(method, url.toString(), all, body?.toByteArray(Charsets.UTF_8))
    }

    private fun send(method: String, path: List<String>, body: String? = null, headers: Map<String, String> = emptyMap()): ByteArray {
        val token = tokenProvider() ?: throw BackendException(BackendError.NotAuthenticated)
        val response = try {
            transport.send(request(method, path, body, headers, token))
        } catch (e: TransportException) {
            throw BackendException(BackendError.Transport(e.kind))
        } catch (e: IOException) {
            throw BackendException(BackendError.Transport(TransportFailure.CONNECT))
        }
        if (response.status !in 200..299) {
            throw BackendException(BackendError.Http(response.status, problemCode(response.body), response.header("Retry-After")))
        }
        return response.body
    }

    private fun malformed(): Nothing = throw BackendException(BackendError.MalformedResponse)

    private fun decodeObject(bytes: ByteArray): JSONObject = try {
        val value = JSONTokener(String(bytes, Charsets.UTF_8)).nextValue()
        value as? JSONObject ?: malformed()
    } catch (e: JSONException) {
        malformed()
    }

    private fun string(o: JSONObject, key: String): String = o.opt(key) as? String ?: malformed()

    private fun optionalString(o: JSONObject, key: String): String? = when (val value = o.opt(key)) {
        null, JSONObject.NULL -> null
        is String -> value
        else -> malformed()
    }

    private fun journeyUrl(o: JSONObject, key: String): SensitiveUrl = urlPolicy.journeyUrl(string(o, key)) ?: malformed()

    companion object {
        /** The `code` of a problem+json body, when there is one (kept raw: a newer backend's code stays readable). */
        fun problemCode(body: ByteArray): String? = try {
            (JSONTokener(String(body, Charsets.UTF_8)).nextValue() as? JSONObject)?.opt("code") as? String
        } catch (e: JSONException) {
            null
        }

        private const val UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"

        /** RFC 3986: everything but unreserved characters percent-encoded (UTF-8), so an id is always one segment. */
        fun percentEncode(segment: String): String {
            val out = StringBuilder()
            for (byte in segment.toByteArray(Charsets.UTF_8)) {
                val c = (byte.toInt() and 0xFF).toChar()
                if (UNRESERVED.indexOf(c) >= 0) out.append(c) else out.append(String.format("%%%02X", byte.toInt() and 0xFF))
            }
            return out.toString()
        }
    }
}

/** A configuration the SDK cannot use; [code] names the problem (never a secret or URL). */
class BatonConfigurationException(val code: String) : IllegalArgumentException("Baton configuration refused: $code")

/** A flow was asked of a [BatonClient] after [BatonClient.signOut]: build a new client for the next user. */
class BatonSignedOutException : IllegalStateException("Baton client signed out: build a new BatonClient for the signed-in user")
