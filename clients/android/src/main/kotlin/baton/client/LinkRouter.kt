package baton.client

/**
 * Answers which flow a URL the OS delivered to the app belongs to (docs/CONTRACTS.md §1.2; Swift's `BatonLinkRouter`).
 *
 * It compares scheme, host, effective port and exact path with the registered return URLs, as the return-link
 * parsers do, and never reads the query: whether the link is a return, and what it claims, stays with the flow's own
 * parser. In order: a URL that does not split strictly, or carries userinfo, belongs to no flow; a registered BB
 * return URL goes to BB; a registered Privue return URL to Privue; `https` on Chia's approved generic return host
 * with the default port to Chia (marketplace home); anything else to no flow. A BB or Privue link with no query is
 * the landing page's bare "Return to the app" link ([Route.landing]). Vectors: `Conformance/link-routing.v1.json`.
 *
 * @throws ReturnUrlRegistrationException `registered_for_two_flows` when a URL is registered for both BB and Privue.
 */
class BatonLinkRouter(
    bankConnect: List<String>,
    verification: List<String>,
    /** Chia's approved generic return host, or `null` when none is approved. */
    genericReturnHost: String?
) {
    /** The flows a link can belong to. */
    enum class Flow(val wireName: String) { BANK_CONNECT("bb"), VERIFICATION("privue"), CHIA_GENERIC_RETURN("chia") }

    /** Why a link belongs to no flow; [wire] is its name in the vectors. */
    enum class Refusal(val wire: String) {
        UNPARSEABLE_URL("unparseable_url"), USERINFO_PRESENT("userinfo_present"), UNREGISTERED_URL("unregistered_url")
    }

    /** Where a link goes: its [flow], whether it is a bare [landing] link, or, for no flow, the [refusal] reason. */
    data class Route(val flow: Flow?, val landing: Boolean, val refusal: Refusal?) {
        companion object {
            fun none(reason: Refusal) = Route(null, false, reason)
        }
    }

    private val bankConnect: List<RegisteredReturnUrl> = bankConnect.map { RegisteredReturnUrl(it) }
    private val verification: List<RegisteredReturnUrl> = verification.map { RegisteredReturnUrl(it) }
    private val genericReturn: GenericReturnParser? = genericReturnHost?.let { GenericReturnParser(it) }

    init {
        for (bb in this.bankConnect) {
            val parts = RawUrl.parse(bb.string) ?: continue
            if (this.verification.any { it.matches(parts) }) throw ReturnUrlRegistrationException("registered_for_two_flows")
        }
    }

    /** Which flow [url] (exactly as the OS delivered it) belongs to. */
    fun route(url: String): Route {
        val parts = RawUrl.parse(url) ?: return Route.none(Refusal.UNPARSEABLE_URL)
        if (parts.userinfo != null) return Route.none(Refusal.USERINFO_PRESENT)
        val landing = parts.query.isNullOrEmpty()
        if (bankConnect.any { it.matches(parts) }) return Route(Flow.BANK_CONNECT, landing, null)
        if (verification.any { it.matches(parts) }) return Route(Flow.VERIFICATION, landing, null)
        val generic = genericReturn?.parse(url)
        if (generic is ReturnLinkResult.Accepted) return Route(Flow.CHIA_GENERIC_RETURN, false, null)
        return Route.none(Refusal.UNREGISTERED_URL)
    }

    /**
     * Routes [url] and hands it, unchanged, to the handler of its flow (each flow's `ReturnLink` event, whose parser
     * decides); a flow with no handler drops it, as AppAuth drops a response with no pending request. Returns the route.
     */
    fun deliver(
        url: String,
        bankConnect: ((String) -> Unit)? = null,
        verification: ((String) -> Unit)? = null,
        chiaGenericReturn: ((String) -> Unit)? = null
    ): Route {
        val route = route(url)
        when (route.flow) {
            Flow.BANK_CONNECT -> bankConnect?.invoke(url)
            Flow.VERIFICATION -> verification?.invoke(url)
            Flow.CHIA_GENERIC_RETURN -> chiaGenericReturn?.invoke(url)
            null -> Unit
        }
        return route
    }
}
