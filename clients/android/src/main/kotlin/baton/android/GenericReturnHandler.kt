package baton.android

import android.content.Intent
import baton.client.GenericReturnParser
import baton.client.ReturnLinkResult

/**
 * Chia's optional generic return (seed 000): validates only the registered return host, ignores the entire query and
 * fragment, and always routes to marketplace home. It never displays or records a completion status, and the route
 * is identical whatever the journey did. Call it from the activity whose intent filter claims that host.
 */
class GenericReturnHandler(registeredHost: String, private val routeToMarketplaceHome: () -> Unit) {
    private val parser = GenericReturnParser(registeredHost)

    /** Routes home when [intent] carries the generic return; answers whether it did. */
    fun handle(intent: Intent?): Boolean {
        if (intent?.action != Intent.ACTION_VIEW) return false
        val url = intent.dataString ?: return false
        if (parser.parse(url) !is ReturnLinkResult.Accepted) return false
        routeToMarketplaceHome()
        return true
    }
}
