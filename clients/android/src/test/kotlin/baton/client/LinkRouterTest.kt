package baton.client

import org.junit.Assert.assertEquals
import org.junit.Assert.fail
import org.junit.Test

/**
 * `Conformance/link-routing.v1.json` on [BatonLinkRouter]: its cases run in [SharedVectorTest] and in
 * `scripts/conformance-report` (section `link-routing`, as `baton conformance` reports them); this builds the router.
 */
@Suppress("UNCHECKED_CAST")
object LinkRoutingVectors {
    val file: Map<String, Any?> by lazy { ConformanceFiles.load("link-routing.v1.json") }

    /** The router of the file's registration, with Chia's generic return host when [generic]. */
    fun router(generic: Boolean): BatonLinkRouter {
        val registration = file["registration"] as Map<String, Any?>
        return BatonLinkRouter(
            registration["bb"] as List<String>, registration["privue"] as List<String>,
            if (generic) registration["genericReturnHost"] as String else null
        )
    }

    /** The route as the vector file spells it. */
    fun spelled(route: BatonLinkRouter.Route): Map<String, Any?> = when (route.flow) {
        null -> mapOf("flow" to null, "reason" to route.refusal?.wire)
        BatonLinkRouter.Flow.CHIA_GENERIC_RETURN -> mapOf("flow" to "chia")
        else -> mapOf("flow" to route.flow.wireName, "landing" to route.landing)
    }

    /** One case: `null` when it passed, else what the router answered. */
    fun check(case: Map<String, Any?>): String? {
        val actual = spelled(router(case["genericReturnApproved"] != false).route(case["url"] as String))
        return if (actual == case["expect"]) null else "got ${JsonValues.text(actual)}"
    }
}

/** The router's registration check and its hand-over. */
class LinkRouterTest {
    @Test
    fun aUrlRegisteredForBothBbAndPrivueIsRefused() {
        try {
            BatonLinkRouter(listOf("https://app.example.com/return"), listOf("https://APP.example.com:443/return?x=1"), null)
            fail("accepted a URL registered for two flows")
        } catch (expected: ReturnUrlRegistrationException) {
            assertEquals("registered_for_two_flows", expected.code)
        }
    }

    @Test
    fun deliverHandsTheUnchangedLinkToItsFlowOnly() {
        val router = LinkRoutingVectors.router(true)
        val seen = mutableListOf<String>()
        val link = "https://app.example.com/bb-callback?sessionId=ses_1&resultCode=Ok"
        val route = router.deliver(link, bankConnect = { seen.add("bb $it") }, verification = { seen.add("privue $it") },
            chiaGenericReturn = { seen.add("chia $it") })
        assertEquals(BatonLinkRouter.Route(BatonLinkRouter.Flow.BANK_CONNECT, false, null), route)
        assertEquals(listOf("bb $link"), seen)
        router.deliver("https://news.example/", bankConnect = { seen.add("bb $it") })
        router.deliver("https://partner.example/kyc/done", bankConnect = { seen.add("bb $it") })
        assertEquals("no handler, no delivery", listOf("bb $link"), seen)
    }
}
