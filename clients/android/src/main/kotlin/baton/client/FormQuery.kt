package baton.client

/**
 * WHATWG `application/x-www-form-urlencoded` query reading, as BatonCore's `FormURLEncodedQuery` does it: split on
 * `&` (empty pieces skipped), split each piece at its first `=`, `+` is a space, percent-decode exactly once
 * (a `%` not followed by two hex digits stays literally), bytes that are not UTF-8 become U+FFFD.
 */
object FormQuery {
    /** The decoded value of the first field called [name] (exact, case-sensitive) in [query], or `null`. */
    fun first(name: String, query: String): String? {
        for (piece in query.split('&')) {
            if (piece.isEmpty()) continue
            val equals = piece.indexOf('=')
            val rawName = if (equals >= 0) piece.substring(0, equals) else piece
            if (decode(rawName) == name) return if (equals >= 0) decode(piece.substring(equals + 1)) else ""
        }
        return null
    }

    /** As [first], but `null` when the value is empty too. */
    fun firstNonEmpty(name: String, query: String): String? {
        val value = first(name, query)
        return if (value == null || value.isEmpty()) null else value
    }

    /** `+` to space, then one pass of percent-decoding over the UTF-8 bytes; malformed escapes stay as written. */
    fun decode(text: String): String {
        if (text.indexOf('+') < 0 && text.indexOf('%') < 0) return text
        val bytes = text.toByteArray(Charsets.UTF_8)
        val out = java.io.ByteArrayOutputStream(bytes.size)
        var i = 0
        while (i < bytes.size) {
            val b = bytes[i].toInt() and 0xFF
            if (b == '+'.toInt()) {
                out.write(0x20)
                i += 1
            } else if (b == '%'.toInt() && i + 2 < bytes.size && hex(bytes[i + 1]) >= 0 && hex(bytes[i + 2]) >= 0) {
                out.write(hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]))
                i += 3
            } else {
                out.write(b)
                i += 1
            }
        }
        return String(out.toByteArray(), Charsets.UTF_8)
    }

    private fun hex(byte: Byte): Int {
        val c = byte.toInt() and 0xFF
        return when (c) {
            in 0x30..0x39 -> c - 0x30
            in 0x41..0x46 -> c - 0x41 + 10
            in 0x61..0x66 -> c - 0x61 + 10
            else -> -1
        }
    }
}
