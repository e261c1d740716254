package dev.baton.sample

import android.app.Activity
import android.content.Intent
import android.os.Build
import android.os.Bundle
import android.os.Handler
import android.os.Looper
import android.view.View
import android.view.ViewGroup
import android.widget.Button
import android.widget.EditText
import android.widget.LinearLayout
import android.widget.ScrollView
import android.widget.TextView
import baton.android.AndroidBrowserPresenter
import baton.android.BatonAndroid
import baton.android.CatalogCardView
import baton.android.MainLooperRunner
import baton.android.SharedPreferencesBatonStorage
import baton.android.WebViewJourneyDataEraser
import baton.client.BankConnect
import baton.client.BatonClient
import baton.client.BatonConfiguration
import baton.client.BrowserCompletion
import baton.client.CatalogCard
import baton.client.ChiaHandoff
import baton.client.ChiaScreen
import baton.client.ConnectScreen
import baton.client.UrlPolicy
import baton.client.Verification
import baton.client.VerificationScreen
import java.util.concurrent.Executors

/**
 * The whole sample: one Activity, plain Views. Signed out, it offers the two sandbox test users; signed in, it shows
 * the first catalog card that offers a share (the SDK's [CatalogCardView]), Privue's verification and BB's bank
 * connect, each driven by its `BatonClient` flow, and a Sign out button that calls [BatonClient.signOut]. Every link
 * the OS delivers to this activity goes through `BatonClient.handleLink` (the SDK's `BatonLinkRouter`).
 */
class MainActivity : Activity() {
    private val main = Handler(Looper.getMainLooper())
    private val work = Executors.newSingleThreadExecutor()
    private lateinit var content: LinearLayout
    private var session: Session? = null
    /** A link that arrived while nobody was signed in: routed after the next sign-in. */
    private var waitingLink: String? = null

    /** The signed-in user's app token (replaced when the backend asks for a new sign-in). */
    private class TokenBox(@Volatile var token: String?)

    /** One signed-in user: their token, their client and the three flows on screen. */
    private class Session(
        val user: String, val tokens: TokenBox, val client: BatonClient, val chia: ChiaHandoff?, val verification: Verification,
        val connect: BankConnect
    )

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        content = LinearLayout(this)
        content.setOrientation(LinearLayout.VERTICAL)
        val scroll = ScrollView(this)
        scroll.addView(content, ViewGroup.LayoutParams(ViewGroup.LayoutParams.MATCH_PARENT, ViewGroup.LayoutParams.WRAP_CONTENT))
        setContentView(scroll)
        waitingLink = viewLink(intent)
        showSignedOut(null)
    }

    override fun onNewIntent(intent: Intent) {
        super.onNewIntent(intent)
        setIntent(intent)
        val link = viewLink(intent) ?: return
        val current = session
        if (current == null) waitingLink = link else route(current, link)
    }

    override fun onResume() {
        super.onResume()
        session?.let {
            it.chia?.foregrounded()
            it.verification.foregrounded()
        }
    }

    override fun onPause() {
        session?.let {
            it.chia?.backgrounded()
            it.verification.backgrounded()
        }
        super.onPause()
    }

    override fun onDestroy() {
        session?.let {
            it.chia?.stop()
            it.verification.stop()
            it.connect.stop()
        }
        work.shutdown()
        super.onDestroy()
    }

    private fun viewLink(intent: Intent?): String? = if (intent?.action == Intent.ACTION_VIEW) intent.dataString else null

    /** Every link through the SDK's router: BB and Privue links (landing links too) to their flows, Chia's to home. */
    private fun route(session: Session, link: String) {
        val route = session.client.handleLink(
            link, bankConnect = session.connect, verification = session.verification, chia = session.chia,
            marketplaceHome = { line("Chia's generic return: marketplace home") }
        )
        if (route.flow == null) line("Not a Baton link (${route.refusal?.wire}): the app's own to handle")
    }

    // Signing in and out.

    private fun showSignedOut(message: String?) {
        content.removeAllViews()
        line("Baton sample — signed out")
        message?.let { line(it) }
        val secret = EditText(this)
        secret.setHint("Dev sign-in secret (printed by baton serve --sandbox)")
        secret.setSingleLine(true)
        content.addView(secret)
        for (user in SampleConfiguration.USERS) {
            button("Sign in as $user") { signIn(user, secret.getText().toString()) }
        }
    }

    /** The sandbox's dev sign-in secret as typed at sign-in, kept to sign the same user in again after a 401. */
    private var devSecret = ""

    private fun signIn(user: String, secret: String) {
        devSecret = secret
        content.removeAllViews()
        line("Signing in as $user…")
        work.execute {
            try {
                val tokens = TokenBox(SandboxSignIn.devToken(SampleConfiguration.BACKEND, user, devSecret))
                val client = BatonClient(
                    BatonConfiguration(
                        backendBaseUrl = SampleConfiguration.BACKEND,
                        userId = user,
                        tokenProvider = { tokens.token }, // null after sign-out: requests go out unauthenticated and fail
                        bbReturnUrls = SampleConfiguration.BB_RETURN_URLS,
                        bbCallbackKind = SampleConfiguration.BB_CALLBACK_KIND,
                        privueReturnUrls = SampleConfiguration.PRIVUE_RETURN_URLS,
                        storage = SharedPreferencesBatonStorage(this),
                        journeyWebData = WebViewJourneyDataEraser(),
                        urlPolicy = UrlPolicy.DEVELOPMENT, // loopback http to the sandbox; never in a release build
                        runner = MainLooperRunner()
                    )
                )
                // The catalog list (a blocking call, so here off the main thread); the card fetches again at its tap.
                val card = client.backend.catalog().firstOrNull { it.handoff.mode == "share_or_neutral" }
                main.post { showSignedIn(user, tokens, client, card) }
            } catch (e: Exception) {
                main.post { showSignedOut("Sign-in failed: ${e.message}") }
            }
        }
    }

    private fun signOut() {
        val current = session ?: return
        session = null
        current.tokens.token = null
        // Stops the flows, forgets this user's pending share attempts and BB session, erases the WebView's cookies
        // and web storage: the next user starts clean.
        current.client.signOut()
        showSignedOut("${current.user} signed out")
    }

    // The signed-in screen: the card, then verification, then bank connect.

    private fun showSignedIn(user: String, tokens: TokenBox, client: BatonClient, card: CatalogCard?) {
        content.removeAllViews()
        line("Signed in as $user")
        button("Sign out") { signOut() }
        val presenter = AndroidBrowserPresenter(this)

        val chia = card?.let { showCard(user, tokens, client, presenter, it) }
        if (card == null) line("No catalog card offers a share yet (the sandbox loads its catalog at start).")

        header("Verify your business (Privue)")
        val verificationState = line("")
        val verification = client.verification(SampleConfiguration.WORKFLOW, presenter, object : Verification.Listener {
            override fun onScreen(screen: VerificationScreen) = verificationState.setText(describe(screen))
        })
        button("Verify your business") { verification.verifyTapped() }

        header("Connect your bank (BB)")
        val connectState = line("")
        val connect = client.bankConnect(presenter, object : BankConnect.Listener {
            override fun onScreen(screen: ConnectScreen) = connectState.setText(describe(screen))
        })
        button("Connect your bank") { connect.connectTapped() }

        val current = Session(user, tokens, client, chia, verification, connect)
        session = current
        chia?.start()
        // A BB return that started this process (the tab outlived it) or a session kept from before is confirmed now.
        connect.start(BatonAndroid.takeColdStartLink())
        waitingLink?.let {
            waitingLink = null
            route(current, it)
        }
    }

    private fun showCard(user: String, tokens: TokenBox, client: BatonClient, presenter: AndroidBrowserPresenter, card: CatalogCard): ChiaHandoff {
        header("Catalog (Chia)")
        val holder = arrayOfNulls<CatalogCardView>(1)
        val flow = client.chiaHandoff(card.id, presenter, object : ChiaHandoff.Listener {
            override fun onScreen(screen: ChiaScreen) {
                holder[0]?.render(card, screen)
            }
            // 401: the app token lapsed. Sign the same user in again; the next Share tap resends the same body and key.
            override fun onSignInRequired() {
                line("Your sign-in lapsed; signing in again…")
                work.execute {
                    val renewed = try { SandboxSignIn.devToken(SampleConfiguration.BACKEND, user, devSecret) } catch (e: SignInException) { null }
                    main.post { line(if (renewed != null) "Signed in again: tap Share to continue" else "Sign-in failed: sign out and in") }
                    if (renewed != null) tokens.token = renewed
                }
            }
            override fun onRouteToMarketplaceHome() {
                line("Marketplace home")
            }
            override fun onBrowserFailed(completion: BrowserCompletion) {
                line("No browser could open Chia's journey")
            }
        })
        val view = CatalogCardView(this, flow)
        holder[0] = view
        view.render(card, null)
        // The mirrored image (card.imageUrl) is the app's to load into view.image, with its own image loader.
        content.addView(view, ViewGroup.LayoutParams(ViewGroup.LayoutParams.MATCH_PARENT, ViewGroup.LayoutParams.WRAP_CONTENT))
        return flow
    }

    private fun describe(screen: VerificationScreen): String = when (screen) {
        is VerificationScreen.Settled -> "Verification: ${screen.status}"
        is VerificationScreen.CouldNotStart -> "Verification could not start" + (screen.browserFailure?.let { " (${it.wire})" } ?: "")
        else -> "Verification: ${screen.wire}"
    }

    private fun describe(screen: ConnectScreen): String =
        "Bank: ${screen.wire}" + ((screen as? ConnectScreen.CouldNotStart)?.browserFailure?.let { " (${it.wire})" } ?: "")

    // Plain views.

    private fun line(text: String): TextView {
        val view = TextView(this)
        view.setText(text)
        content.addView(view)
        return view
    }

    private fun header(text: String) {
        val view = line(text)
        if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.P) view.setAccessibilityHeading(true)
    }

    private fun button(label: String, tapped: () -> Unit) {
        val view = Button(this)
        view.setText(label)
        view.setOnClickListener(View.OnClickListener { tapped() })
        content.addView(view)
    }
}
