package baton.android

import android.content.Intent
import baton.client.BatonLinkRouter

/**
 * Chia's optional generic return (seed 000): validates only the registered return host, ignores the entire query and
 * fragment, and always routes to marketplace home. It never displays or records a completion status, and the route
 * is identical whatever the journey did. Call it from the activity whose intent filter claims that host. The link is
 * sorted by [BatonLinkRouter], as `BatonClient.handleLink` sorts it, with Chia's host as the only registration.
 */
class GenericReturnHandler(registeredHost: String, private val routeToMarketplaceHome: () -> Unit) {
    private val router = BatonLinkRouter(bankConnect = emptyList(), verification = emptyList(), genericReturnHost = registeredHost)

    /** Routes home when [intent] carries the generic return; answers whether it did. */
    fun handle(intent: Intent?): Boolean {
        if (intent?.action != Intent.ACTION_VIEW) return false
        val url = intent.dataString ?: return false
        val route = router.deliver(url, chiaGenericReturn = { routeToMarketplaceHome() })
        return route.flow == BatonLinkRouter.Flow.CHIA_GENERIC_RETURN
    }
}
