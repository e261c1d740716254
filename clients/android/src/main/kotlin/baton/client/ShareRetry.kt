package baton.client

import java.time.DateTimeException
import java.time.LocalDate
import java.time.LocalDateTime
import java.time.ZoneOffset

/** What the HTTP layer observed for one `POST /v2/handoff-sessions`: a response, or no response at all. */
sealed class ShareOutcome {
    /** An HTTP response with [status] and the raw `Retry-After` value, if any. */
    data class Response(val status: Int, val retryAfter: String?) : ShareOutcome()

    /** No response ([kind]): the server may or may not have acted. */
    data class Transport(val kind: TransportFailure) : ShareOutcome()
}

/**
 * What the app does after a share request (seed 000 tap sequence; docs/CONTRACTS.md §2 app rule).
 *
 * Network errors, 408, 429 and 5xx leave the outcome uncertain: retry with the exact body and key. 401 means the
 * app's sign-in lapsed: sign in again and retry with the same key and body (the first attempt may have reached Chia).
 * Any other 4xx is definitive: discard both and refetch the projection. 2xx is done; anything else is not a
 * definitive answer, so it is retried like a network error.
 */
sealed class RetryDecision {
    /** Retry with the same body and key; [afterSeconds] is the server's `Retry-After`, when readable. */
    data class Retry(val afterSeconds: Int?) : RetryDecision()

    /** Sign in again, then retry with the same body and key. */
    object SignInAndRetry : RetryDecision()

    /** Discard body and key, refetch the projection. */
    object RefetchProjection : RetryDecision()

    /** Success: open the URL from this response. */
    object Done : RetryDecision()

    companion object {
        /** Classifies [outcome]; [nowMillis] resolves a `Retry-After` HTTP date. */
        fun classify(outcome: ShareOutcome, nowMillis: Long): RetryDecision = when (outcome) {
            is ShareOutcome.Transport -> Retry(null)
            is ShareOutcome.Response -> when (outcome.status) {
                in 200..299 -> Done
                401 -> SignInAndRetry
                408, 429, in 500..599 -> Retry(outcome.retryAfter?.let { retryAfterSeconds(it, nowMillis) })
                in 400..499 -> RefetchProjection
                else -> Retry(null)
            }
        }

        /** RFC 9110 `Retry-After`: delay-seconds, or an IMF-fixdate against [nowMillis] (past is 0); `null` if malformed. */
        fun retryAfterSeconds(value: String, nowMillis: Long): Int? {
            val trimmed = value.trim { it == ' ' || it == '\t' }
            if (trimmed.isNotEmpty() && trimmed.all { it in '0'..'9' }) {
                return if (trimmed.length > 9) Int.MAX_VALUE else trimmed.toInt()
            }
            val date = parseImfFixdate(trimmed) ?: return null
            val millis = date - nowMillis
            if (millis <= 0) return 0
            return ((millis + 999) / 1000).toInt()
        }

        private val DAYS = listOf("Mon,", "Tue,", "Wed,", "Thu,", "Fri,", "Sat,", "Sun,")
        private val MONTHS = listOf("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

        /** `Sun, 06 Nov 1994 08:49:37 GMT`, strictly, as epoch milliseconds. */
        private fun parseImfFixdate(text: String): Long? {
            val parts = text.split(' ')
            if (parts.size != 6 || parts[0] !in DAYS || parts[5] != "GMT" || parts[1].length != 2 || parts[3].length != 4) {
                return null
            }
            val day = parts[1].toIntOrNull() ?: return null
            val month = MONTHS.indexOf(parts[2])
            val year = parts[3].toIntOrNull() ?: return null
            val time = parts[4].split(':')
            if (month < 0 || time.size != 3 || time.any { it.length != 2 }) return null
            val hour = time[0].toIntOrNull() ?: return null
            val minute = time[1].toIntOrNull() ?: return null
            val second = time[2].toIntOrNull() ?: return null
            if (hour >= 24 || minute >= 60 || second >= 61) return null
            return try {
                val date = LocalDate.of(year, month + 1, day)
                LocalDateTime.of(date, java.time.LocalTime.of(hour, minute, minOf(second, 59)))
                    .toInstant(ZoneOffset.UTC).toEpochMilli() + (if (second == 60) 1000 else 0)
            } catch (e: DateTimeException) {
                null
            }
        }
    }
}

/** An `Idempotency-Key`: a canonical UUIDv4, kept exactly as given. */
class IdempotencyKey private constructor(val value: String) {
    override fun equals(other: Any?) = other is IdempotencyKey && other.value == value
    override fun hashCode() = value.hashCode()
    override fun toString() = value

    companion object {
        /** Validates [text]: 8-4-4-4-12 hex, version nibble 4, variant 8, 9, a or b. */
        fun of(text: String): IdempotencyKey? {
            if (text.length != 36) return null
            for ((i, c) in text.withIndex()) {
                val hyphen = i == 8 || i == 13 || i == 18 || i == 23
                if (hyphen != (c == '-')) return null
                if (!hyphen && !(c in '0'..'9' || c in 'a'..'f' || c in 'A'..'F')) return null
            }
            if (text[14] != '4' || text[19] !in "89abAB") return null
            return IdempotencyKey(text)
        }

        /** A fresh random key (`java.util.UUID.randomUUID` is a SecureRandom UUIDv4). */
        fun random(): IdempotencyKey = IdempotencyKey(java.util.UUID.randomUUID().toString())
    }
}

/**
 * The exact body of `POST /v2/handoff-sessions` and its key: persisted before the first send and kept, byte for byte,
 * until a success or a definitive rejection. Never the journey URL.
 */
data class PendingAttempt(val key: IdempotencyKey, val catalogItemId: String, val disclosureVersion: String, val affirmedAt: String) {
    /** The JSON bytes sent: keys sorted, slashes unescaped, so the same attempt always encodes the same way. */
    fun bodyJson(): String =
        "{\"affirmed\":true,\"affirmedAt\":${Json.quote(affirmedAt)},\"catalogItemId\":${Json.quote(catalogItemId)}," +
            "\"disclosureVersion\":${Json.quote(disclosureVersion)}}"
}

/** Minimal JSON text helpers (the pure library does not depend on org.json). */
object Json {
    /** [text] as a JSON string literal (`/` unescaped). */
    fun quote(text: String): String {
        val out = StringBuilder(text.length + 2)
        out.append('"')
        for (c in text) {
            when {
                c == '"' -> out.append("\\\"")
                c == '\\' -> out.append("\\\\")
                c == '\n' -> out.append("\\n")
                c == '\r' -> out.append("\\r")
                c == '\t' -> out.append("\\t")
                c.toInt() < 0x20 -> out.append(String.format("\\u%04x", c.toInt()))
                else -> out.append(c)
            }
        }
        out.append('"')
        return out.toString()
    }
}

/** RFC 3339 in UTC, whole seconds, as BatonCore's `RFC3339` writes it. */
object Rfc3339 {
    /** `2026-01-01T00:00:05Z` for [millis]. */
    fun format(millis: Long): String =
        java.time.Instant.ofEpochMilli(millis - Math.floorMod(millis, 1000L)).toString()

    /** Epoch milliseconds of an RFC 3339 timestamp. */
    fun parse(text: String): Long = java.time.OffsetDateTime.parse(text).toInstant().toEpochMilli()
}
