package baton.client

import org.json.JSONArray
import org.json.JSONObject
import org.json.JSONTokener
import java.io.File

/** org.json values as plain Kotlin values (maps, lists, Long/Double, String, Boolean, null) for deep comparison. */
object JsonValues {
    fun plain(value: Any?): Any? = when (value) {
        null, JSONObject.NULL -> null
        is JSONObject -> value.keys().asSequence().map { it to plain(value.get(it)) }.toMap()
        is JSONArray -> (0 until value.length()).map { plain(value.get(it)) }
        is Int -> value.toLong()
        is Long -> value
        is Number -> if (value.toDouble() == Math.floor(value.toDouble())) value.toLong() else value.toDouble()
        else -> value
    }

    /** [value] back to JSON text (for the report and for card decoding). */
    fun text(value: Any?): String = when (value) {
        null -> "null"
        is String -> Json.quote(value)
        is Map<*, *> -> value.entries.joinToString(",", "{", "}") { Json.quote(it.key as String) + ":" + text(it.value) }
        is List<*> -> value.joinToString(",", "[", "]") { text(it) }
        else -> value.toString()
    }

    /** A plain value as an org.json value (what [CatalogCard.decode] reads). */
    fun toJson(value: Any?): Any? = JSONTokener(text(value)).nextValue()
}

/** The repository's `Conformance/` folder: `BATON_CONFORMANCE_DIR`, else found by walking up from the working directory. */
object ConformanceFiles {
    val directory: File by lazy {
        System.getenv("BATON_CONFORMANCE_DIR")?.let { return@lazy File(it) }
        var dir: File? = File("").absoluteFile
        while (dir != null && !File(dir, "Conformance/return-links.v1.json").exists()) dir = dir.parentFile
        File(dir ?: throw IllegalStateException("Conformance/ not found above the working directory"), "Conformance")
    }

    /** The parsed file `Conformance/<name>` as plain values. */
    @Suppress("UNCHECKED_CAST")
    fun load(name: String): Map<String, Any?> =
        JsonValues.plain(JSONObject(File(directory, name).readText(Charsets.UTF_8))) as Map<String, Any?>
}
