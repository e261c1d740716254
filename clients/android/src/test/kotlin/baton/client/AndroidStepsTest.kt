package baton.client

import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test

/** The pure decisions behind the library's activities and card view. */
class AndroidStepsTest {
    private val url = SensitiveUrl("https://privue.example/acme/kyc#ticket=secret")
    private val style = BrowserStyle.CameraWebView(listOf(RegisteredReturnUrl("https://partner.example/kyc/done")), UrlPolicy.PRODUCTION)

    @Test
    fun aHandoffIsTakenOnceSoARecreatedActivityNeverReloadsIt() {
        val registry = PresentationRegistry()
        val ended = mutableListOf<BrowserCompletion>()
        val ticket = registry.register(url, style) { ended += it }
        assertEquals(url, registry.takeUrl(ticket))
        assertNull(registry.takeUrl(ticket))
        assertEquals(style, registry.style(ticket))
        assertNull(registry.takeUrl("another"))
        assertNull(registry.takeUrl(null))
        assertFalse(ticket.contains("privue"))
        assertTrue(registry.complete(ticket, BrowserCompletion.ClosedWithoutReturn))
        assertFalse(registry.complete(ticket, BrowserCompletion.Failed))
        assertEquals(listOf<BrowserCompletion>(BrowserCompletion.ClosedWithoutReturn), ended)
        assertNull(registry.style(ticket))
    }

    @Test
    fun aLinkEndsTheOpenCustomTabOrIsKeptForTheColdStart() {
        val registry = PresentationRegistry()
        val ended = mutableListOf<BrowserCompletion>()
        val link = "https://app.example.com/bb-callback?sessionId=cs_1&resultCode=Ok"
        assertFalse(registry.deliverLink(link))
        assertEquals(link, registry.takePendingLink())
        assertNull(registry.takePendingLink())
        registry.register(url, BrowserStyle.CustomTab(emptyList())) { ended += it }
        assertTrue(registry.deliverLink(link))
        assertEquals(listOf<BrowserCompletion>(BrowserCompletion.Returned(link)), ended)
        assertNull(registry.takePendingLink())
        assertFalse(BrowserCompletion.Returned(link).toString().contains("cs_1"))
    }

    @Test
    fun aReturnLinkNobodyWaitsForAfterAProcessDeathIsKeptForTheColdStart() {
        val link = "acmewallet://bb-callback?sessionId=cs_1&resultCode=Ok"
        val fresh = PresentationRegistry()
        // The recreated redirect activity still holds its ticket, but the new process has no presentation for it.
        assertEquals(PresentationRegistry.Handover.KEPT_FOR_COLD_START, fresh.finish("stale-ticket", BrowserCompletion.Returned(link)))
        assertEquals(link, fresh.takePendingLink())
        assertEquals(PresentationRegistry.Handover.DROPPED, fresh.finish("stale-ticket", BrowserCompletion.ClosedWithoutReturn))
        assertNull(fresh.takePendingLink())
        val ended = mutableListOf<BrowserCompletion>()
        val ticket = fresh.register(url, BrowserStyle.CustomTab(emptyList())) { ended += it }
        assertEquals(PresentationRegistry.Handover.DELIVERED, fresh.finish(ticket, BrowserCompletion.Returned(link)))
        assertEquals(listOf<BrowserCompletion>(BrowserCompletion.Returned(link)), ended)
        assertNull(fresh.takePendingLink())
    }

    @Test
    fun oneJourneyOnScreenAtATime() {
        val registry = PresentationRegistry()
        val first = registry.registerExclusive(url, style) {}
        assertTrue(first != null)
        assertNull(registry.registerExclusive(url, BrowserStyle.CustomTab(emptyList())) {})
        registry.complete(first, BrowserCompletion.ClosedWithoutReturn)
        assertTrue(registry.registerExclusive(url, BrowserStyle.CustomTab(emptyList())) {} != null)
    }

    @Test
    fun theVerificationActivityRestoresInsteadOfReloadingAndAsksForTheCamera() {
        assertEquals(VerificationActivitySteps.Start.RESTORE_STATE, VerificationActivitySteps.onCreate(true, false, true))
        assertEquals(VerificationActivitySteps.Start.RESTORE_STATE, VerificationActivitySteps.onCreate(true, true, false))
        assertEquals(VerificationActivitySteps.Start.FAIL_TO_OPEN, VerificationActivitySteps.onCreate(false, false, true))
        assertEquals(VerificationActivitySteps.Start.REQUEST_CAMERA, VerificationActivitySteps.onCreate(false, true, false))
        assertEquals(VerificationActivitySteps.Start.LOAD, VerificationActivitySteps.onCreate(false, true, true))
        assertEquals(VerificationActivitySteps.Back.GO_BACK, VerificationActivitySteps.onBack(true))
        assertEquals(VerificationActivitySteps.Back.CLOSE, VerificationActivitySteps.onBack(false))
        assertNull(VerificationActivitySteps.onDestroy(changingConfigurations = true, alreadyCompleted = false))
        assertNull(VerificationActivitySteps.onDestroy(changingConfigurations = false, alreadyCompleted = true))
        assertEquals(BrowserCompletion.Failed, VerificationActivitySteps.onDestroy(changingConfigurations = false, alreadyCompleted = false))
    }

    @Test
    fun theCardPlanKeepsContinueWithoutSharingUsableDuringARetryWait() {
        val card = CatalogCard.decode(org.json.JSONObject(SdkFixtures.card()))!!
        val machine = ChiaHandoffMachine(card.id, null)
        machine.handle(ChiaHandoffMachine.Event.CallToActionTapped)
        machine.handle(ChiaHandoffMachine.Event.ProjectionLoaded(card))
        machine.handle(ChiaHandoffMachine.Event.ShareTapped(0, IdempotencyKey.random()))
        machine.handle(ChiaHandoffMachine.Event.ShareFailed(ShareOutcome.Response(503, "30"), 0))
        machine.handle(ChiaHandoffMachine.Event.ShareTapped(1000, IdempotencyKey.random()))
        val actions = CardRenderPlan.disclosure(card, machine.screen).filter { it.role == CardElement.Role.BUTTON }
        assertEquals(listOf(false, true), actions.map { it.enabled })
        val neutral = CardRenderPlan.disclosure(card.copy(handoff = MobileHandoff.NeutralOnly("H", "B", "https://chia.example/c")), null)
        assertEquals(listOf("disclosure.heading", "disclosure.body", "action.neutral"), neutral.map { it.id })
    }
}
