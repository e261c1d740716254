package docsnippets

import android.content.Context
import androidx.activity.ComponentActivity
import baton.android.AndroidBrowserPresenter
import baton.client.BankConnect
import baton.client.BatonClient
import baton.client.CatalogCard
import baton.client.ChiaHandoff
import baton.client.ConnectScreen
import baton.client.Verification
import baton.client.VerificationScreen

/**
 * What the ```kotlin blocks of docs/android.md take from "your app": the names a guide snippet uses without defining
 * them. scripts/doc-snippets compiles each block inside a subclass of this activity (statements in a function, a
 * block marked `members` in the class body), against the SDK's main sources and the stubs. Never run.
 */
abstract class DocActivity : ComponentActivity() {
    /** The app's own sign-in. */
    interface Session {
        val userId: String
        fun appToken(): String?
    }

    abstract val session: Session
    /** A sandbox sign-in's token (`baton token`, or `POST /web/dev-token`). */
    abstract val devToken: String?
    val activity: ComponentActivity get() = this
    val context: Context get() = this

    abstract val baton: BatonClient
    abstract val presenter: AndroidBrowserPresenter
    abstract val connect: BankConnect
    abstract val verification: Verification
    abstract val chiaFlow: ChiaHandoff
    abstract val catalogCard: CatalogCard

    abstract fun render(screen: ConnectScreen)
    abstract fun render(screen: VerificationScreen)
    abstract fun signInAgain()
    abstract fun navigateHome()
    abstract fun toast(text: String)
    abstract fun handleAsOwnLink(url: String)
}
