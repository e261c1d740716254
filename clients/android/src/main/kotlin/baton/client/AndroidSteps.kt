package baton.client

/**
 * The process-wide bookkeeping between a presenter and the library's activities, kept in memory only: a journey URL
 * is handed to the activity that opens it through an opaque ticket (never an `Intent` extra, which the system may
 * persist in the recents list), taken once (a recreated activity never reloads a used handoff), and the journey's
 * end is reported once. A link the redirect activity receives while no Custom Tab is pending (a cold start) is kept
 * for the app's next [BankConnect.start], and dropped when the user signs out first ([BatonClient.signOut]).
 */
class PresentationRegistry {
    companion object {
        /** The process's registry: `BatonAndroid.presentations`, whose kept cold-start link [BatonClient.signOut] drops. */
        val shared = PresentationRegistry()
    }

    private class Entry(var url: SensitiveUrl?, val style: BrowserStyle, val completion: (BrowserCompletion) -> Unit)

    private val entries = LinkedHashMap<String, Entry>()
    private var pendingLink: String? = null

    /** Registers a presentation; the ticket goes in the activity's intent. */
    @Synchronized
    fun register(url: SensitiveUrl, style: BrowserStyle, completion: (BrowserCompletion) -> Unit): String {
        val ticket = java.util.UUID.randomUUID().toString()
        entries[ticket] = Entry(url, style, completion)
        return ticket
    }

    /**
     * Registers a presentation unless another one is still open (Swift's `PresentationSlot`: one journey on screen at
     * a time); `null` means the caller answers [BrowserCompletion.FailedToOpen] at once.
     */
    @Synchronized
    fun registerExclusive(url: SensitiveUrl, style: BrowserStyle, completion: (BrowserCompletion) -> Unit): String? =
        if (entries.isNotEmpty()) null else register(url, style, completion)

    /** The URL for [ticket], once: later calls (a recreated activity) answer `null`. */
    @Synchronized
    fun takeUrl(ticket: String?): SensitiveUrl? {
        val entry = entries[ticket ?: return null] ?: return null
        val url = entry.url
        entry.url = null
        return url
    }

    /** The style registered for [ticket], while it is open. */
    @Synchronized
    fun style(ticket: String?): BrowserStyle? = ticket?.let { entries[it]?.style }

    /** Ends [ticket]'s presentation with [completion]; answers whether it was still open (each ends once). */
    fun complete(ticket: String?, completion: BrowserCompletion): Boolean {
        val entry = synchronized(this) { entries.remove(ticket ?: return false) } ?: return false
        entry.completion(completion)
        return true
    }

    /** The ticket of the open Custom Tab presentation, if any. */
    @Synchronized
    fun openCustomTab(): String? = entries.entries.lastOrNull { it.value.style is BrowserStyle.CustomTab }?.key

    /**
     * A return link reached the redirect activity without a ticket: it ends the open Custom Tab presentation when
     * there is one (answers true), else it is kept for [takePendingLink] (a cold start: answers false).
     */
    fun deliverLink(link: String): Boolean {
        val ticket = openCustomTab()
        if (ticket != null && complete(ticket, BrowserCompletion.Returned(link))) return true
        synchronized(this) { pendingLink = link }
        return false
    }

    /** Where [finish] sent a presentation's end. */
    enum class Handover {
        /** The open presentation's flow got it. */
        DELIVERED,
        /** No presentation was open for it (the process was restarted): the return link is kept for the app's next
         *  `BankConnect.start`, and the app should be brought up. */
        KEPT_FOR_COLD_START,
        /** Nothing to hand over (a close or failure nobody waits for; the kept session id is confirmed on restart). */
        DROPPED
    }

    /** Ends [ticket]'s presentation; a return link nobody is waiting for any more is kept, never lost. */
    fun finish(ticket: String?, completion: BrowserCompletion): Handover {
        if (complete(ticket, completion)) return Handover.DELIVERED
        if (completion !is BrowserCompletion.Returned) return Handover.DROPPED
        return if (deliverLink(completion.link)) Handover.DELIVERED else Handover.KEPT_FOR_COLD_START
    }

    /** The link a cold start delivered, once. */
    @Synchronized
    fun takePendingLink(): String? {
        val link = pendingLink
        pendingLink = null
        return link
    }

    /** Forgets the link a cold start kept (sign-out: the next user's `BankConnect.start` must never get it). */
    @Synchronized
    fun discardPendingLink() {
        pendingLink = null
    }
}

/** The decisions of the library's verification activity (Privue's camera web view), kept pure to test them here. */
object VerificationActivitySteps {
    enum class Start {
        /** Recreated with the web view's saved state: restore it; never load the handoff again. */
        RESTORE_STATE,
        /** No handoff for this ticket (already used, or the process was restarted): end as failed to open. */
        FAIL_TO_OPEN,
        /** The app lacks CAMERA: request it, then load (a denial still loads; Privue's camera step then asks again). */
        REQUEST_CAMERA,
        LOAD
    }

    fun onCreate(hasSavedWebView: Boolean, handoffAvailable: Boolean, holdsCamera: Boolean): Start = when {
        hasSavedWebView -> Start.RESTORE_STATE
        !handoffAvailable -> Start.FAIL_TO_OPEN
        !holdsCamera -> Start.REQUEST_CAMERA
        else -> Start.LOAD
    }

    enum class Back { GO_BACK, CLOSE }

    /** Back goes back inside the journey while it can; otherwise it closes it (the user's close). */
    fun onBack(canGoBack: Boolean): Back = if (canGoBack) Back.GO_BACK else Back.CLOSE

    /**
     * `onDestroy`: a configuration change ends nothing; a finish the activity did not start itself (the system or
     * another caller closed it) is [BrowserCompletion.Failed] — the flow still asks the backend.
     */
    fun onDestroy(changingConfigurations: Boolean, alreadyCompleted: Boolean): BrowserCompletion? =
        if (changingConfigurations || alreadyCompleted) null else BrowserCompletion.Failed
}

/** One element of the card as the Android view renders it, in reading order. */
data class CardElement(
    /** `block:image`, `block:title`, …, `disclosure.heading`, …, `action.primary`, `action.secondary`, `action.neutral`. */
    val id: String,
    val role: Role,
    val text: String,
    /** What TalkBack reads (the image's alt text; a link's purpose). */
    val contentDescription: String?,
    val enabled: Boolean = true
) {
    /** What the element is to the view and to TalkBack; [wire] is its name in the render plan's vectors. */
    enum class Role(val wire: String) { IMAGE("image"), HEADING("heading"), TEXT("text"), LINK("link"), BUTTON("button") }
}

/**
 * The card and its just-in-time disclosure as an ordered list of elements (the shared render plan of
 * renderer-conformance.v1.json "reading-order"): the blocks in `block_order`, then the disclosure, then the actions.
 * Both actions of `share_or_neutral` are the same role with the same enabled state (equal access); no text is ever
 * cut (the view sets no line limit).
 */
object CardRenderPlan {
    fun card(card: CatalogCard): List<CardElement> = card.blockOrder.map { block ->
        when (block) {
            CatalogBlock.IMAGE -> CardElement("block:image", CardElement.Role.IMAGE, "", card.imageAlt)
            CatalogBlock.TITLE -> CardElement("block:title", CardElement.Role.HEADING, card.title, null)
            CatalogBlock.SUMMARY -> CardElement("block:summary", CardElement.Role.TEXT, card.summary, null)
            CatalogBlock.PRICE -> CardElement("block:price", CardElement.Role.TEXT, card.priceText, null)
        }
    }

    fun disclosure(card: CatalogCard, screen: ChiaScreen?): List<CardElement> {
        val share = screen?.shareEnabled ?: true
        val go = screen?.continueEnabled ?: true
        return when (val h = card.handoff) {
            is MobileHandoff.NeutralOnly -> listOf(
                CardElement("disclosure.heading", CardElement.Role.HEADING, h.heading, null),
                CardElement("disclosure.body", CardElement.Role.TEXT, h.body, null),
                CardElement("action.neutral", CardElement.Role.BUTTON, MobileHandoff.CONTINUE_LABEL, null, go)
            )
            is MobileHandoff.ShareOrNeutral -> listOf(
                CardElement("disclosure.heading", CardElement.Role.HEADING, h.heading, null),
                CardElement("disclosure.body", CardElement.Role.TEXT, h.body, null),
                CardElement("disclosure.recipient", CardElement.Role.TEXT, "${h.recipientLegalName} (${h.recipientPrivacyContact})", null),
                CardElement("disclosure.dataShared", CardElement.Role.TEXT, h.dataShared.joinToString("\n"), null),
                CardElement("disclosure.purpose", CardElement.Role.TEXT, h.purpose, null),
                CardElement("disclosure.compensationDisclosure", CardElement.Role.TEXT, h.compensationDisclosure, null),
                CardElement("disclosure.policyUrls", CardElement.Role.TEXT, h.policyUrls.joinToString("\n") { it.first }, "Policies: " + h.policyUrls.joinToString(", ") { it.first }),
                CardElement("action.primary", CardElement.Role.BUTTON, MobileHandoff.SHARE_LABEL, null, share),
                CardElement("action.secondary", CardElement.Role.BUTTON, MobileHandoff.CONTINUE_WITHOUT_SHARING_LABEL, null, go)
            )
        }
    }

    /** The whole plan: card blocks, then the disclosure and actions (when [showDisclosure]). */
    fun of(card: CatalogCard, screen: ChiaScreen?, showDisclosure: Boolean): List<CardElement> =
        card(card) + (if (showDisclosure) disclosure(card, screen) else emptyList())
}
