package baton.android

import android.content.Context
import android.os.Build
import android.view.View
import android.view.ViewGroup
import android.widget.Button
import android.widget.ImageView
import android.widget.LinearLayout
import android.widget.TextView
import baton.client.CardElement
import baton.client.CardRenderPlan
import baton.client.CatalogCard
import baton.client.ChiaHandoff
import baton.client.ChiaScreen

/**
 * The catalog card and its just-in-time disclosure as one vertical View, in the shared render plan's reading order
 * ([CardRenderPlan]: blocks in `block_order`, then the disclosure, then the actions). Every text wraps (no line limit,
 * no ellipsis), sizes are the platform's `sp` defaults so 200 % font scale shows the full copy; the image carries the
 * projection's alt text; both share actions are the same `Button` with the same enabled state rule. Taps go to the
 * [ChiaHandoff] flow; the app loads the image bytes itself into [image] (the library fetches nothing before a tap).
 */
class CatalogCardView(context: Context, private val flow: ChiaHandoff) : LinearLayout(context) {
    /** The card's image view (content description set); load the mirrored image into it with the app's loader. */
    var image: ImageView? = null
        private set

    init {
        setOrientation(VERTICAL)
    }

    /** Renders [screen] (call from `ChiaHandoff.Listener.onScreen`); before the tap, [card] from the catalog list. */
    fun render(card: CatalogCard, screen: ChiaScreen?) {
        removeAllViews()
        image = null
        val showDisclosure = screen?.card != null
        val elements = CardRenderPlan.of(screen?.card ?: card, screen, showDisclosure)
        for (element in elements) addView(viewFor(element), LayoutParams(ViewGroup.LayoutParams.MATCH_PARENT, ViewGroup.LayoutParams.WRAP_CONTENT))
        if (!showDisclosure) {
            val cta = Button(context)
            cta.setText(card.title)
            cta.setContentDescription(card.title)
            cta.setOnClickListener(View.OnClickListener { flow.callToActionTapped() })
            addView(cta, LayoutParams(ViewGroup.LayoutParams.MATCH_PARENT, ViewGroup.LayoutParams.WRAP_CONTENT))
        }
    }

    private fun viewFor(element: CardElement): View = when (element.role) {
        CardElement.Role.IMAGE -> ImageView(context).also {
            it.setContentDescription(element.contentDescription)
            it.setImportantForAccessibility(View.IMPORTANT_FOR_ACCESSIBILITY_YES)
            image = it
        }
        CardElement.Role.BUTTON -> Button(context).also {
            it.setText(element.text)
            it.setEnabled(element.enabled)
            it.setOnClickListener(View.OnClickListener {
                when (element.id) {
                    "action.primary" -> flow.shareTapped()
                    else -> flow.continueTapped()
                }
            })
        }
        CardElement.Role.HEADING, CardElement.Role.TEXT, CardElement.Role.LINK -> TextView(context).also {
            it.setText(element.text)
            element.contentDescription?.let { description -> it.setContentDescription(description) }
            // API 28+ (minSdk is 23): older TalkBack reads it as plain text in the same order.
            if (element.role == CardElement.Role.HEADING && Build.VERSION.SDK_INT >= Build.VERSION_CODES.P) it.setAccessibilityHeading(true)
        }
    }
}
