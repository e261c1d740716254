package baton.android

import android.content.Context
import android.content.Intent
import android.net.Uri
import androidx.browser.customtabs.CustomTabsIntent
import baton.client.SensitiveUrl

/**
 * Chia (seed 000): the OS external browser, never a WebView or a Custom Tab with a bridge. An `ACTION_VIEW` intent
 * in the `BROWSABLE` category hands the URL, unchanged, to the user's browser (or to an app that verified the domain).
 */
object ExternalBrowser {
    /** Opens [url] once; the caller must not keep it. */
    fun open(context: Context, url: SensitiveUrl) {
        val intent = Intent(Intent.ACTION_VIEW, Uri.parse(url.reveal())).addCategory(Intent.CATEGORY_BROWSABLE)
        context.startActivity(intent)
    }
}

/**
 * BB (seed 002): Custom Tabs (`androidx.browser`), never `android.webkit.WebView`. The tab sits above the
 * `singleTask` [ConnectActivity], which receives the return link through `onNewIntent` and closes the tab.
 */
object CustomTabsPresenter {
    /** Opens [url] once in a Custom Tab over [context]. */
    fun open(context: Context, url: SensitiveUrl) {
        CustomTabsIntent.Builder().setShowTitle(true).build().launchUrl(context, Uri.parse(url.reveal()))
    }
}
