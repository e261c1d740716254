package baton.client

import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test

/** Privue on Android: the close on the return path confirms; a foreground asks once. */
class VerificationFlowRulesTest {
    private fun inJourney(): VerificationMachine {
        val machine = VerificationMachine("kyc", VerificationReturnParser(listOf("https://partner.example/kyc/done")), PollingPolicy(2, 30))
        machine.handle(VerificationMachine.Event.VerifyTapped(0))
        machine.handle(VerificationMachine.Event.HandoffCreated(SensitiveUrl("https://verify.privue.example/acme#ticket=t")))
        return machine
    }

    @Test
    fun aCloseOnTheReturnPathWithoutVerificationIdEndsTheBrowserPhaseAndConfirms() {
        val machine = inJourney()
        val actions = machine.handle(VerificationMachine.Event.WebViewReturn("https://partner.example/kyc/done?status=approved", 3000))
        assertEquals(
            listOf(
                VerificationMachine.Action.DismissWebView, VerificationMachine.Action.Render(VerificationScreen.Confirming()),
                VerificationMachine.Action.FetchStatus("kyc"), VerificationMachine.Action.ScheduleTick(33_000)
            ),
            actions
        )
    }

    @Test
    fun osLinksThatAreNotReturnsLeaveTheJourneyOpen() {
        val machine = inJourney()
        assertEquals(emptyList<VerificationMachine.Action>(), machine.handle(VerificationMachine.Event.ReturnLink("https://partner.example/kyc/other", 3000)))
        assertEquals(emptyList<VerificationMachine.Action>(), machine.handle(VerificationMachine.Event.ReturnLink("https://partner.example/kyc/done?status=approved", 3000)))
        assertEquals(VerificationScreen.InJourney, machine.screen)
    }

    @Test
    fun aForegroundWhilePendingAsksTheBackendOneRequestAtATime() {
        val machine = inJourney()
        assertEquals(listOf(VerificationMachine.Action.FetchStatus("kyc")), machine.handle(VerificationMachine.Event.Foregrounded(9000)))
        assertEquals(emptyList<VerificationMachine.Action>(), machine.handle(VerificationMachine.Event.Foregrounded(9100)))
        assertEquals(emptyList<VerificationMachine.Action>(), machine.handle(VerificationMachine.Event.StatusReceived("in_progress", 9500)))
        assertEquals(VerificationScreen.InJourney, machine.screen)
        assertEquals(listOf(VerificationMachine.Action.FetchStatus("kyc")), machine.handle(VerificationMachine.Event.Foregrounded(12_000)))
    }

    @Test
    fun aSettledAnswerToTheForegroundCheckEndsTheJourney() {
        val machine = inJourney()
        machine.handle(VerificationMachine.Event.Foregrounded(9000))
        val actions = machine.handle(VerificationMachine.Event.StatusReceived("approved", 9500))
        assertTrue(actions.contains(VerificationMachine.Action.DismissWebView))
        assertEquals(VerificationScreen.Settled("approved"), machine.screen)
    }
}
