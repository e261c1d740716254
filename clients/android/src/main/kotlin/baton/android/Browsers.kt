package baton.android

import android.content.ActivityNotFoundException
import android.content.Context
import android.content.Intent
import android.net.Uri
import androidx.browser.customtabs.CustomTabsIntent
import baton.client.BrowserCompletion
import baton.client.SensitiveUrl

/**
 * Chia (seed 000): the OS external browser, never a WebView or a Custom Tab with a bridge. An `ACTION_VIEW` intent
 * in the `BROWSABLE` category hands the URL, unchanged, to the user's browser (or to an app that verified the domain).
 */
object ExternalBrowser {
    /**
     * Opens [url] once; the caller must not keep it. A device with no browser (`ActivityNotFoundException`) or a
     * refused start (`SecurityException`) answers [BrowserCompletion.FailedToOpen], never a crash.
     */
    fun open(context: Context, url: SensitiveUrl): BrowserCompletion {
        return try {
            val intent = Intent(Intent.ACTION_VIEW, Uri.parse(url.reveal())).addCategory(Intent.CATEGORY_BROWSABLE)
            if (context !is android.app.Activity) intent.addFlags(Intent.FLAG_ACTIVITY_NEW_TASK)
            context.startActivity(intent)
            BrowserCompletion.HandedToSystem
        } catch (e: ActivityNotFoundException) {
            BrowserCompletion.FailedToOpen
        } catch (e: SecurityException) {
            BrowserCompletion.FailedToOpen
        }
    }
}

/**
 * BB (seed 002): Custom Tabs (`androidx.browser`), never `android.webkit.WebView`. Launched by the library's
 * [BatonRedirectActivity], which sits under the tab in the app's task and receives the return link.
 */
object CustomTabs {
    /** Opens [url] once in a Custom Tab over [context]; false when no browser can show it. */
    fun open(context: Context, url: SensitiveUrl): Boolean = try {
        CustomTabsIntent.Builder().setShowTitle(true).build().launchUrl(context, Uri.parse(url.reveal()))
        true
    } catch (e: ActivityNotFoundException) {
        false
    } catch (e: SecurityException) {
        false
    }
}
