package baton.client

/** Why a URL is not a return link; [reason] is the machine reason `baton parse-return` prints. Never carries the URL. */
enum class ReturnLinkRejection(val reason: String) {
    UNPARSEABLE_URL("unparseable_url"),
    USERINFO_PRESENT("userinfo_present"),
    NOT_HTTPS("not_https"),
    UNREGISTERED_URL("unregistered_url"),
    UNREGISTERED_HOST("unregistered_host"),
    UNREGISTERED_PORT("unregistered_port"),
    MISSING_SESSION_ID("missing_session_id"),
    MISSING_RESULT_CODE("missing_result_code"),
    INVALID_RESULT_CODE("invalid_result_code"),
    MISSING_VERIFICATION_ID("missing_verification_id")
}

/** A parser's answer: a return with its value, or not a return and why. */
sealed class ReturnLinkResult<out T> {
    /** The URL is a return link. */
    data class Accepted<T>(val value: T) : ReturnLinkResult<T>()

    /** The URL is not a return link, because of [reason]. */
    data class Rejected(val reason: ReturnLinkRejection) : ReturnLinkResult<Nothing>()
}

/** A registration that cannot be used (configuration error, thrown at construction). */
class ReturnUrlRegistrationException(val code: String) : IllegalArgumentException("return URL cannot be registered: $code")

/**
 * A return URL registered with a provider. A delivered URL matches when scheme (ASCII case-insensitive), host (ASCII
 * case-insensitive), effective port and path (exact; empty https path is `/`) are equal and it has no userinfo.
 * Queries are not compared.
 */
class RegisteredReturnUrl(val string: String) {
    private val scheme: String
    private val host: String
    private val port: Int?
    private val path: String

    init {
        val parts = RawUrl.parse(string) ?: throw ReturnUrlRegistrationException("unparseable_url")
        if (parts.userinfo != null) throw ReturnUrlRegistrationException("userinfo_present")
        if (parts.fragment != null) throw ReturnUrlRegistrationException("fragment_present")
        scheme = parts.normalizedScheme
        host = parts.normalizedHost
        port = parts.effectivePort
        path = parts.effectivePath
    }

    /** Whether the registered URL uses https. */
    val isHttps: Boolean get() = scheme == "https"

    /** The registered host, ASCII-lowercased. */
    val normalizedHost: String get() = host

    /** The registered path (an empty https path is `/`). */
    val effectivePath: String get() = path

    /** Whether [candidate] is this registered URL. */
    fun matches(candidate: RawUrl): Boolean =
        candidate.userinfo == null && candidate.normalizedScheme == scheme && candidate.effectivePort == port &&
            candidate.normalizedHost == host && candidate.effectivePath == path

    override fun toString(): String = string

    companion object {
        /** Whether [url] splits strictly, has no userinfo and no (or an empty) query, and matches one of [registered]. */
        fun isBare(url: String, registered: List<RegisteredReturnUrl>): Boolean {
            val parts = RawUrl.parse(url) ?: return false
            if (parts.userinfo != null || !(parts.query ?: "").isEmpty()) return false
            return registered.any { it.matches(parts) }
        }
    }
}

/** A BB connect return (seed 002); a UX signal only, never the outcome. */
data class ConnectReturn(val sessionId: String, val resultCode: ConnectResultCode, val connectionId: String?, val error: String?)

/** The `resultCode` a BB return carries; [wire] is its exact (case-sensitive) spelling in the link. */
enum class ConnectResultCode(val wire: String) {
    OK("Ok"), ERROR("Error"), CANCELLED("Cancelled");

    companion object {
        /** The code spelled exactly [wire], or `null` (the parser then refuses the link). */
        fun of(wire: String): ConnectResultCode? = values().firstOrNull { it.wire == wire }
    }
}

/** A Privue verification return (seed 001); [statusHint] is a landing hint only. */
data class VerificationReturn(val verificationId: String, val statusHint: String?)

/** BB connect return parser (docs/CONTRACTS.md §1): registered URL, then `sessionId`, then `resultCode`. */
class ConnectReturnParser(registered: List<String>) {
    /** The registered return URLs (universal/app link and/or custom scheme). */
    val registered: List<RegisteredReturnUrl>

    init {
        if (registered.isEmpty()) throw ReturnUrlRegistrationException("none_registered")
        this.registered = registered.map { RegisteredReturnUrl(it) }
    }

    /** Whether [url] is a registered return URL with no query at all (the landing page's bare link back). */
    fun isBareReturn(url: String): Boolean = RegisteredReturnUrl.isBare(url, registered)

    /** Whether [url] (exactly as delivered) is a BB connect return, and with what. */
    fun parse(url: String): ReturnLinkResult<ConnectReturn> {
        val parts = RawUrl.parse(url) ?: return ReturnLinkResult.Rejected(ReturnLinkRejection.UNPARSEABLE_URL)
        if (parts.userinfo != null) return ReturnLinkResult.Rejected(ReturnLinkRejection.USERINFO_PRESENT)
        if (registered.none { it.matches(parts) }) return ReturnLinkResult.Rejected(ReturnLinkRejection.UNREGISTERED_URL)
        val query = parts.query ?: ""
        val sessionId = FormQuery.firstNonEmpty("sessionId", query)
            ?: return ReturnLinkResult.Rejected(ReturnLinkRejection.MISSING_SESSION_ID)
        val resultCode = FormQuery.first("resultCode", query)
            ?: return ReturnLinkResult.Rejected(ReturnLinkRejection.MISSING_RESULT_CODE)
        val code = ConnectResultCode.of(resultCode) ?: return ReturnLinkResult.Rejected(ReturnLinkRejection.INVALID_RESULT_CODE)
        return ReturnLinkResult.Accepted(
            ConnectReturn(
                sessionId, code, FormQuery.firstNonEmpty("connectionId", query),
                FormQuery.firstNonEmpty("error", query)
            )
        )
    }
}

/** Privue verification return parser (docs/CONTRACTS.md §1): https, registered URL, then `verification_id`. */
class VerificationReturnParser(registered: List<String>) {
    /** The registered https return URLs. */
    val registered: List<RegisteredReturnUrl>

    init {
        if (registered.isEmpty()) throw ReturnUrlRegistrationException("none_registered")
        this.registered = registered.map { RegisteredReturnUrl(it) }
        if (!this.registered.all { it.isHttps }) throw ReturnUrlRegistrationException("not_https")
    }

    /** Whether [url] is a registered return URL with no query at all (the landing page's bare link back). */
    fun isBareReturn(url: String): Boolean = RegisteredReturnUrl.isBare(url, registered)

    /** Whether [url] is a Privue verification return, and with what. */
    fun parse(url: String): ReturnLinkResult<VerificationReturn> {
        val parts = RawUrl.parse(url) ?: return ReturnLinkResult.Rejected(ReturnLinkRejection.UNPARSEABLE_URL)
        if (parts.normalizedScheme != "https") return ReturnLinkResult.Rejected(ReturnLinkRejection.NOT_HTTPS)
        if (parts.userinfo != null) return ReturnLinkResult.Rejected(ReturnLinkRejection.USERINFO_PRESENT)
        if (registered.none { it.matches(parts) }) return ReturnLinkResult.Rejected(ReturnLinkRejection.UNREGISTERED_URL)
        val query = parts.query ?: ""
        val id = FormQuery.firstNonEmpty("verification_id", query)
            ?: return ReturnLinkResult.Rejected(ReturnLinkRejection.MISSING_VERIFICATION_ID)
        return ReturnLinkResult.Accepted(VerificationReturn(id, FormQuery.firstNonEmpty("status", query)))
    }
}

/**
 * Chia's generic return (seed 000): https, the registered host, the default port. Path, query and fragment are
 * ignored entirely; the only route is marketplace home, whatever the journey did.
 */
class GenericReturnParser(registeredHost: String) {
    /** The registered host, ASCII-lowercased. */
    val registeredHost: String

    init {
        val parts = RawUrl.parse("https://$registeredHost")
        if (parts == null || parts.userinfo != null || parts.port != null || parts.host.isEmpty() ||
            parts.path.isNotEmpty() || parts.query != null || parts.fragment != null
        ) throw ReturnUrlRegistrationException("unparseable_url")
        this.registeredHost = parts.normalizedHost
    }

    /** Whether [url] is the generic return (the value is always [MARKETPLACE_HOME]), or why it is not. */
    fun parse(url: String): ReturnLinkResult<String> {
        val parts = RawUrl.parse(url) ?: return ReturnLinkResult.Rejected(ReturnLinkRejection.UNPARSEABLE_URL)
        if (parts.normalizedScheme != "https") return ReturnLinkResult.Rejected(ReturnLinkRejection.NOT_HTTPS)
        if (parts.userinfo != null) return ReturnLinkResult.Rejected(ReturnLinkRejection.USERINFO_PRESENT)
        if (parts.normalizedHost != registeredHost) return ReturnLinkResult.Rejected(ReturnLinkRejection.UNREGISTERED_HOST)
        if (parts.effectivePort != 443) return ReturnLinkResult.Rejected(ReturnLinkRejection.UNREGISTERED_PORT)
        return ReturnLinkResult.Accepted(MARKETPLACE_HOME)
    }

    companion object {
        /** The one route a generic return leads to. */
        const val MARKETPLACE_HOME = "marketplace-home"
    }
}
