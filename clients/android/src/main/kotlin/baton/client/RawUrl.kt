package baton.client

/**
 * The parts of an absolute `scheme://authority/path?query#fragment` URL, split strictly and never normalised
 * (a transcription of BatonCore's `RawURLComponents`, docs/CONTRACTS.md §1).
 *
 * `android.net.Uri` and `java.net.URI` repair or reject what they are given; a return link must be judged exactly as
 * delivered. [parse] only cuts the string at the RFC 3986 delimiters and answers `null` for anything that is not an
 * absolute URL with an authority, contains ASCII whitespace or control characters, has a backslash in its authority,
 * or has a port that is not a decimal number up to 65535.
 */
class RawUrl private constructor(
    /** The scheme as written. */
    val scheme: String,
    /** The userinfo before `@`, if any (even an empty one). */
    val userinfo: String?,
    /** The host as written; an IPv6 literal keeps its brackets. */
    val host: String,
    /** The port; `null` when absent or empty. */
    val port: Int?,
    /** The path as written, possibly empty. */
    val path: String,
    /** The query after `?`, if a `?` is present. */
    val query: String?,
    /** The fragment after `#`, if a `#` is present. */
    val fragment: String?
) {
    /** The scheme in ASCII lowercase. */
    val normalizedScheme: String get() = asciiLowercase(scheme)

    /** The host in ASCII lowercase (nothing else is normalised). */
    val normalizedHost: String get() = asciiLowercase(host)

    /** The port, or the scheme's default (443 for https, 80 for http); `null` for a custom scheme without one. */
    val effectivePort: Int? get() = port ?: defaultPort(scheme)

    /** The path; an empty `http(s)` path reads as `/`. */
    val effectivePath: String
        get() = if (path.isEmpty() && (normalizedScheme == "https" || normalizedScheme == "http")) "/" else path

    companion object {
        /** Splits [text], or answers `null` when it is not a strictly well-formed absolute URL with an authority. */
        fun parse(text: String): RawUrl? {
            if (text.any { it.toInt() <= 0x20 || it.toInt() == 0x7F }) return null
            val colon = text.indexOf(':')
            if (colon < 0) return null
            val scheme = text.substring(0, colon)
            if (!isValidScheme(scheme)) return null
            if (!text.startsWith("//", colon + 1)) return null
            val authorityStart = colon + 3
            var authorityEnd = text.length
            for (i in authorityStart until text.length) {
                val c = text[i]
                if (c == '/' || c == '?' || c == '#') {
                    authorityEnd = i
                    break
                }
            }
            val authority = text.substring(authorityStart, authorityEnd)
            if (authority.contains('\\')) return null
            val at = authority.lastIndexOf('@')
            val userinfo = if (at >= 0) authority.substring(0, at) else null
            val hostAndPort = if (at >= 0) authority.substring(at + 1) else authority
            val host: String
            val portText: String?
            if (hostAndPort.startsWith("[")) {
                val close = hostAndPort.indexOf(']')
                if (close < 0) return null
                host = hostAndPort.substring(0, close + 1)
                val after = hostAndPort.substring(close + 1)
                portText = when {
                    after.isEmpty() -> null
                    after.startsWith(":") -> after.substring(1)
                    else -> return null
                }
                val inner = host.substring(1, host.length - 1)
                if (inner.isEmpty() || !inner.all { isHexDigit(it) || it == ':' || it == '.' || it == '%' }) return null
            } else {
                val portColon = hostAndPort.indexOf(':')
                host = if (portColon >= 0) hostAndPort.substring(0, portColon) else hostAndPort
                portText = if (portColon >= 0) hostAndPort.substring(portColon + 1) else null
                if (!host.all { isRegNameChar(it) }) return null
            }
            var port: Int? = null
            if (portText != null && portText.isNotEmpty()) {
                if (portText.length > 5 || !portText.all { it in '0'..'9' }) return null
                val value = portText.toInt()
                if (value > 65535) return null
                port = value
            }
            var rest = text.substring(authorityEnd)
            var fragment: String? = null
            val hash = rest.indexOf('#')
            if (hash >= 0) {
                fragment = rest.substring(hash + 1)
                rest = rest.substring(0, hash)
            }
            var query: String? = null
            val question = rest.indexOf('?')
            if (question >= 0) {
                query = rest.substring(question + 1)
                rest = rest.substring(0, question)
            }
            return RawUrl(scheme, userinfo, host, port, rest, query, fragment)
        }

        /** ASCII-only lowercase: `String.toLowerCase()` would also fold non-ASCII letters, which the contract does not. */
        fun asciiLowercase(text: String): String {
            val out = StringBuilder(text.length)
            for (c in text) out.append(if (c in 'A'..'Z') (c.toInt() + 32).toChar() else c)
            return out.toString()
        }

        /** The default port of [scheme]: 443 for https and wss, 80 for http and ws, else `null`. */
        fun defaultPort(scheme: String): Int? = when (asciiLowercase(scheme)) {
            "https", "wss" -> 443
            "http", "ws" -> 80
            else -> null
        }

        private fun isValidScheme(scheme: String): Boolean {
            if (scheme.isEmpty() || !isLetter(scheme[0])) return false
            return scheme.all { isLetter(it) || it in '0'..'9' || it == '+' || it == '-' || it == '.' }
        }

        private fun isLetter(c: Char) = c in 'a'..'z' || c in 'A'..'Z'

        private fun isHexDigit(c: Char) = c in '0'..'9' || c in 'a'..'f' || c in 'A'..'F'

        private fun isRegNameChar(c: Char) =
            isLetter(c) || c in '0'..'9' || c.toInt() >= 0x80 || "-._~!$&'()*+,;=%".indexOf(c) >= 0
    }
}
