package baton.client

/** The fixtures of `renderer-conformance.v1.json` and its RFC 6902 subset (add / replace / remove on object members). */
@Suppress("UNCHECKED_CAST")
object RendererFixtures {
    fun patched(node: Any?, keys: List<String>, op: String, value: Any?): Any? {
        if (keys.isEmpty()) return value
        val members = (node as? Map<String, Any?>)?.toMutableMap() ?: return node
        val key = keys[0]
        if (keys.size == 1) {
            if (op == "remove") members.remove(key) else members[key] = value
        } else if (members.containsKey(key)) {
            members[key] = patched(members[key], keys.drop(1), op, value)
        }
        return LinkedHashMap(members)
    }

    /** The GET /v2/catalog card each projection name serves (`absent`: not listed). */
    fun projections(document: Map<String, Any?>): Map<String, Any?> {
        val fixtures = document["fixtures"] as Map<String, Any?>
        val cards = fixtures["cards"] as Map<String, Any?>
        val result = LinkedHashMap<String, Any?>(cards)
        result["absent"] = null
        for ((name, derived) in fixtures["derived"] as Map<String, Map<String, Any?>>) {
            var card = cards[derived["card"]]
            for (op in derived["patch"] as List<Map<String, Any?>>) {
                card = patched(card, (op["path"] as String).split('/').drop(1), op["op"] as String, op["value"])
            }
            result[name] = card
        }
        return result
    }
}
