package baton.client

import org.junit.Assert.assertEquals
import org.junit.Assert.fail
import org.junit.Test
import org.junit.runner.RunWith
import org.junit.runners.Parameterized

/** Every case of Conformance/link-routing.v1.json on [BatonLinkRouter]. */
@RunWith(Parameterized::class)
class LinkRoutingTest(private val id: String, private val case: Map<String, Any?>, private val generic: Boolean) {
    companion object {
        private val file = ConformanceFiles.load("link-routing.v1.json")

        @Suppress("UNCHECKED_CAST")
        @JvmStatic
        @Parameterized.Parameters(name = "{0}")
        fun cases(): Collection<Array<Any>> = (file["cases"] as List<Map<String, Any?>>)
            .map { arrayOf<Any>(it["id"] as String, it, it["genericReturnApproved"] != false) }

        @Suppress("UNCHECKED_CAST")
        fun router(generic: Boolean): BatonLinkRouter {
            val registration = file["registration"] as Map<String, Any?>
            return BatonLinkRouter(
                registration["bb"] as List<String>, registration["privue"] as List<String>,
                if (generic) registration["genericReturnHost"] as String else null
            )
        }

        /** The route as the vector file spells it. */
        fun spelled(route: BatonLinkRouter.Route): Map<String, Any?> = when (route.flow) {
            null -> mapOf("flow" to null, "reason" to route.refusal)
            BatonLinkRouter.Flow.CHIA_GENERIC_RETURN -> mapOf("flow" to "chia")
            else -> mapOf("flow" to route.flow.wireName, "landing" to route.landing)
        }
    }

    @Test
    fun vector() {
        assertEquals(id, case["expect"], spelled(router(generic).route(case["url"] as String)))
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
        val router = LinkRoutingTest.router(true)
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
