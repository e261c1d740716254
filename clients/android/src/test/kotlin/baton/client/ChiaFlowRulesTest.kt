package baton.client

import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test

/** The Chia share rules of seed 000 and docs/CONTRACTS.md §2, beyond the shared vectors. */
class ChiaFlowRulesTest {
    private val card = CatalogCard.decode(
        JSONObject(
            """{"id":"item-1","presentation_contract":{"block_order":["image","title","summary","price"]},
            "title":"T","summary":"S","priceText":"P","image":{"url":"https://partner.example/a.png","alt":"A"},
            "handoff":{"mode":"share_or_neutral","heading":"H","body":"B",
            "recipient":{"legal_name":"Chia","privacy_contact":"p@chia.example"},"dataShared":["x"],"purpose":"p",
            "compensationDisclosure":"c","policyUrls":{},"primary":{"actionLabel":"Share selection and continue",
            "sessionCreationPath":"/v2/handoff-sessions","disclosureVersion":"dv-1"},
            "secondary":{"actionLabel":"Continue without sharing","url":"https://chia.example/c/item-1"}}}"""
        )
    )!!
    private val keyA = IdempotencyKey.of("3f2504e0-4f89-41d3-9a0c-0305e82c3301")!!
    private val keyB = IdempotencyKey.of("9b2c6f1e-8d4a-4c3b-a1e2-5f6d7c8b9a01")!!
    private val journey = SensitiveUrl("https://chia.example/h/phs_secret123")

    private fun presented(): ChiaHandoffMachine {
        val machine = ChiaHandoffMachine("item-1", GenericReturnParser("partner.example"))
        machine.handle(ChiaHandoffMachine.Event.CallToActionTapped)
        machine.handle(ChiaHandoffMachine.Event.ProjectionLoaded(card))
        return machine
    }

    private fun sends(actions: List<ChiaHandoffMachine.Action>) = actions.filterIsInstance<ChiaHandoffMachine.Action.SendShareRequest>()

    @Test
    fun nothingIsRequestedBeforeTheTap() {
        val machine = ChiaHandoffMachine("item-1", GenericReturnParser("partner.example"))
        val actions = machine.handle(ChiaHandoffMachine.Event.Foregrounded) + machine.handle(ChiaHandoffMachine.Event.Backgrounded) +
            machine.handle(ChiaHandoffMachine.Event.ReturnLink("https://partner.example/home?done=1#paid"))
        // The generic return only routes home: no request, no outcome.
        assertEquals(listOf(ChiaHandoffMachine.Action.RouteToMarketplaceHome), actions)
    }

    @Test
    fun doubleTapsJoinTheOneInFlightRequest() {
        val machine = presented()
        val first = machine.handle(ChiaHandoffMachine.Event.ShareTapped(0, keyA))
        val later = machine.handle(ChiaHandoffMachine.Event.ShareTapped(1, keyB)) + machine.handle(ChiaHandoffMachine.Event.ContinueTapped)
        assertEquals(1, sends(first).size)
        assertEquals(emptyList<ChiaHandoffMachine.Action>(), later)
        assertFalse((first[0] as ChiaHandoffMachine.Action.Render).screen.shareEnabled)
    }

    @Test
    fun a408KeepsTheExactBodyAndKey() {
        val machine = presented()
        val sent = sends(machine.handle(ChiaHandoffMachine.Event.ShareTapped(0, keyA))).single().attempt
        val failed = machine.handle(ChiaHandoffMachine.Event.ShareFailed(ShareOutcome.Response(408, null), 1000))
        assertTrue(failed.none { it is ChiaHandoffMachine.Action.DiscardPendingAttempt || it is ChiaHandoffMachine.Action.FetchProjection })
        val retried = sends(machine.handle(ChiaHandoffMachine.Event.ShareTapped(5000, keyB))).single().attempt
        assertEquals(sent, retried)
        assertEquals(sent.bodyJson(), retried.bodyJson())
    }

    @Test
    fun a401AsksToSignInAgainAndTheNextShareResendsTheSameKeyAndBody() {
        val machine = presented()
        val sent = sends(machine.handle(ChiaHandoffMachine.Event.ShareTapped(0, keyA))).single().attempt
        val failed = machine.handle(ChiaHandoffMachine.Event.ShareFailed(ShareOutcome.Response(401, null), 1000))
        assertEquals(ChiaHandoffMachine.Action.RequestSignIn, failed.first())
        assertTrue(failed.none { it is ChiaHandoffMachine.Action.DiscardPendingAttempt || it is ChiaHandoffMachine.Action.FetchProjection })
        assertEquals(ChiaScreen.Notice.SIGN_IN_REQUIRED, machine.screen.notice)
        assertTrue(machine.screen.shareEnabled && machine.screen.continueEnabled)
        assertEquals(listOf(sent), sends(machine.handle(ChiaHandoffMachine.Event.ShareTapped(2000, keyB))).map { it.attempt })
    }

    @Test
    fun duringARetryAfterWaitContinueStaysUsableAndAShareTapJoinsThePendingRetry() {
        val machine = presented()
        val sent = sends(machine.handle(ChiaHandoffMachine.Event.ShareTapped(0, keyA))).single().attempt
        val failed = machine.handle(ChiaHandoffMachine.Event.ShareFailed(ShareOutcome.Response(429, "10"), 1000))
        assertTrue(failed.contains(ChiaHandoffMachine.Action.ScheduleTick(11_000)))
        assertTrue(machine.screen.continueEnabled)
        assertTrue(machine.screen.shareEnabled)
        // A tap during the wait: no request, no new key; the second tap joins the first.
        assertEquals(emptyList<ChiaHandoffMachine.Action.SendShareRequest>(), sends(machine.handle(ChiaHandoffMachine.Event.ShareTapped(3000, keyB))))
        assertTrue(machine.screen.continueEnabled)
        assertEquals(emptyList<ChiaHandoffMachine.Action>(), machine.handle(ChiaHandoffMachine.Event.ShareTapped(4000, keyB)))
        assertEquals(emptyList<ChiaHandoffMachine.Action>(), machine.handle(ChiaHandoffMachine.Event.Tick(10_999)))
        assertEquals(listOf(sent), sends(machine.handle(ChiaHandoffMachine.Event.Tick(11_000))).map { it.attempt })
    }

    @Test
    fun continueWithoutSharingDuringTheWaitOpensTheNeutralPageAndSendsNothing() {
        val machine = presented()
        machine.handle(ChiaHandoffMachine.Event.ShareTapped(0, keyA))
        machine.handle(ChiaHandoffMachine.Event.ShareFailed(ShareOutcome.Response(503, "30"), 1000))
        machine.handle(ChiaHandoffMachine.Event.ShareTapped(2000, keyB))
        val actions = machine.handle(ChiaHandoffMachine.Event.ContinueTapped)
        assertTrue(actions.contains(ChiaHandoffMachine.Action.OpenExternalBrowser(SensitiveUrl("https://chia.example/c/item-1"))))
        assertEquals(emptyList<ChiaHandoffMachine.Action>(), machine.handle(ChiaHandoffMachine.Event.Tick(31_000)))
    }

    @Test
    fun aDefinitiveRejectionDiscardsBodyAndKeyAndRefetches() {
        val machine = presented()
        machine.handle(ChiaHandoffMachine.Event.ShareTapped(0, keyA))
        val actions = machine.handle(ChiaHandoffMachine.Event.ShareFailed(ShareOutcome.Response(409, null), 1000))
        assertTrue(actions.contains(ChiaHandoffMachine.Action.DiscardPendingAttempt))
        assertTrue(actions.contains(ChiaHandoffMachine.Action.FetchProjection))
        machine.handle(ChiaHandoffMachine.Event.ProjectionLoaded(card))
        assertEquals(keyB, sends(machine.handle(ChiaHandoffMachine.Event.ShareTapped(2000, keyB))).single().attempt.key)
    }

    @Test
    fun theJourneyUrlIsOpenedOnceAndNeverPersistedOrPrinted() {
        val machine = presented()
        val actions = machine.handle(ChiaHandoffMachine.Event.ShareTapped(0, keyA)) +
            machine.handle(ChiaHandoffMachine.Event.ShareSucceeded(journey)) + machine.handle(ChiaHandoffMachine.Event.ShareTapped(1, keyB)) +
            machine.handle(ChiaHandoffMachine.Event.Foregrounded)
        assertEquals(1, actions.count { it == ChiaHandoffMachine.Action.OpenExternalBrowser(journey) })
        val printed = actions.filter { it !is ChiaHandoffMachine.Action.OpenExternalBrowser }.joinToString() + journey.toString() +
            actions.toString()
        assertFalse(printed, printed.contains("phs_secret123"))
    }
}
