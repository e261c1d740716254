package baton.client

/**
 * Which URLs pass where a contract says `https` (BatonCore's `URLPolicy`, docs/CONTRACTS.md §2 "local development").
 *
 * [PRODUCTION] (the default everywhere) accepts only `https`. [DEVELOPMENT] also accepts plain `http` to a loopback
 * host (`127.0.0.0/8`, `[::1]`, `localhost`) so the SDK can run against `baton serve --sandbox` — from the tests here,
 * or from an emulator through `adb reverse`. An app opts in explicitly ([BatonConfiguration.urlPolicy]); the policy is
 * a value passed down, never a global.
 */
enum class UrlPolicy {
    PRODUCTION,
    DEVELOPMENT;

    /** Whether loopback `http` passes where `https` is required. */
    val allowsLoopbackHttp: Boolean get() = this == DEVELOPMENT

    /** Whether a URL with this (lowercased) [scheme] and [host] passes where `https` is required. */
    fun acceptsAsSecure(scheme: String, host: String): Boolean =
        scheme == "https" || (scheme == "http" && allowsLoopbackHttp && isLoopback(host))

    /** Whether [text] is an absolute URL with a host and no userinfo that this policy accepts as secure. */
    fun accepts(text: String): Boolean {
        val parts = RawUrl.parse(text) ?: return false
        return parts.host.isNotEmpty() && parts.userinfo == null && acceptsAsSecure(parts.normalizedScheme, parts.normalizedHost)
    }

    /** [text] as a journey URL when this policy accepts it, else `null`. */
    fun journeyUrl(text: String): SensitiveUrl? = if (accepts(text)) SensitiveUrl(text) else null

    companion object {
        /** Whether [host] (lowercased, IPv6 in brackets) names this machine: `localhost`, `[::1]` or `127.x.y.z`. */
        fun isLoopback(host: String): Boolean {
            if (host == "localhost" || host == "[::1]") return true
            val octets = host.split('.')
            if (octets.size != 4) return false
            for (octet in octets) {
                if (octet.isEmpty() || octet.length > 3 || !octet.all { it in '0'..'9' } || octet.toInt() > 255) return false
            }
            return octets[0].toInt() == 127
        }
    }
}
