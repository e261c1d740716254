package baton.client

/** One case of a shared vector file, checked by this shell. */
class SharedCase(
    val file: String,
    val section: String,
    val id: String,
    private val run: (() -> String?)?,
    private val notRunReason: String = "no executable check for this case in the Kotlin shell"
) {
    /** `passed`, `failed` or `not_run`, with a detail. */
    fun result(): Pair<String, String> {
        val check = run ?: return "not_run" to notRunReason
        return try {
            val failure = check()
            if (failure == null) "passed" to "" else "failed" to failure
        } catch (e: Exception) {
            "failed" to "${e.javaClass.simpleName}: ${e.message}"
        }
    }

    override fun toString() = "$file#$section/$id"
}

/** Every case of the shared vector files this shell reports on. */
@Suppress("UNCHECKED_CAST")
object SharedVectors {
    val all: List<SharedCase> by lazy {
        val cases = mutableListOf<SharedCase>()
        fun add(file: String, section: String, case: Map<String, Any?>, run: (() -> String?)?) {
            cases += SharedCase(file, section, case["id"] as String, run)
        }
        val returnLinks = ConformanceFiles.load("return-links.v1.json")
        for (case in returnLinks["cases"] as List<Map<String, Any?>>) {
            add("return-links.v1.json", "return-links", case) { VectorChecks.returnLink(case) }
        }
        for (case in LinkRoutingVectors.file["cases"] as List<Map<String, Any?>>) {
            add("link-routing.v1.json", "link-routing", case) { LinkRoutingVectors.check(case) }
        }
        val retry = ConformanceFiles.load("retry-classification.v1.json")
        val now = Rfc3339.parse(retry["now"] as String)
        for (case in retry["cases"] as List<Map<String, Any?>>) {
            add("retry-classification.v1.json", "retry-classification", case) { VectorChecks.retry(case, now) }
        }
        val renderer = ConformanceFiles.load("renderer-conformance.v1.json")
        val cards = (renderer["fixtures"] as Map<String, Any?>)["cards"] as Map<String, Any?>
        for (case in renderer["decision"] as List<Map<String, Any?>>) {
            add("renderer-conformance.v1.json", "decision", case) { VectorChecks.decision(case, cards) }
        }
        val driver = RendererInteraction(renderer)
        for (case in renderer["interaction"] as List<Map<String, Any?>>) {
            add("renderer-conformance.v1.json", "interaction", case) { driver.check(case) }
        }
        val sdk = RendererSdkChecks(renderer)
        for (section in listOf("accessibility", "forbidden")) {
            for (case in renderer[section] as List<Map<String, Any?>>) {
                val id = case["id"] as String
                val check = sdk.check(section, id)
                cases += if (check != null) SharedCase("renderer-conformance.v1.json", section, id, check)
                else SharedCase("renderer-conformance.v1.json", section, id, null, sdk.notRunReasons[id] ?: "no executable check for this case in the Kotlin shell")
            }
        }
        val interaction = ConformanceFiles.load("interaction.v1.json")
        val flowCards = interaction["cards"] as Map<String, Any?>
        for (case in interaction["cases"] as List<Map<String, Any?>>) {
            add("interaction.v1.json", "interaction-flows", case) { VectorChecks.interaction(case, flowCards) }
        }
        cases
    }
}

/** `clients/android/scripts/conformance-report`: one JSON object on stdout, every shared case with its result. */
object ConformanceReport {
    @JvmStatic
    fun main(args: Array<String>) {
        val rows = SharedVectors.all.map { case ->
            val (result, detail) = case.result()
            mapOf("file" to case.file, "section" to case.section, "id" to case.id, "result" to result, "detail" to detail)
        }
        println(JsonValues.text(mapOf("shell" to "kotlin", "cases" to rows)))
    }
}
