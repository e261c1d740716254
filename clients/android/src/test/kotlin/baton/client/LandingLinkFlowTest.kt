package baton.client

import org.junit.Assert.assertEquals
import org.junit.Test

/**
 * Issue 22 on Android: the landing page at the return path links to `https://<returnLanding.openHost><path>`, bare
 * (the backend's ReturnLandingPage; Swift's LandingReturnEndToEndTests follows the whole path). Chrome opens the app
 * with it (an App Link from a user gesture) and `onNewIntent` hands it to [CustomTabReturnTracker]; registered beside
 * the return URL, it ends the browser phase and the backend's answer settles the flow.
 */
class LandingLinkFlowTest {
    private val bbLanding = "https://open.app.example.com/bb-callback"
    private val privueLanding = "https://open.app.example.com/kyc/done"
    private val bbParser = ConnectReturnParser(listOf("https://app.example.com/bb-callback", bbLanding, "acmewallet://bb-callback"))

    @Test
    fun theLandingLinkWithNoTabOpenConfirmsTheKeptSessionAndTheBackendAnswers() {
        // The journey went on in Chrome ("open in browser"), so no Custom Tab of ours is open when the link comes.
        val machine = ConnectMachine(CallbackKind.HTTPS, bbParser, PollingPolicy(2, 20), storedPendingSessionId = "ses_4")
        val tracker = CustomTabReturnTracker()
        assertEquals(
            listOf(
                ConnectMachine.Action.Render(ConnectScreen.Confirming(ConnectReturnHint.UNKNOWN)),
                ConnectMachine.Action.FetchSession("ses_4"), ConnectMachine.Action.ScheduleTick(21_000)
            ),
            machine.handle(tracker.linkDelivered(bbLanding, 1000)!!)
        )
        assertEquals(
            listOf(ConnectMachine.Action.ForgetPendingSession, ConnectMachine.Action.Render(ConnectScreen.Connected)),
            machine.handle(ConnectMachine.Event.SessionStateReceived("ses_4", ConnectSessionStatus.OK, 1100))
        )
    }

    @Test
    fun theLandingLinkIsIgnoredWhenTheAppDidNotRegisterIt() {
        val parser = ConnectReturnParser(listOf("https://app.example.com/bb-callback"))
        val machine = ConnectMachine(CallbackKind.HTTPS, parser, PollingPolicy(2, 20), storedPendingSessionId = "ses_4")
        assertEquals(emptyList<ConnectMachine.Action>(), machine.handle(CustomTabReturnTracker().linkDelivered(bbLanding, 1000)!!))
    }

    @Test
    fun theLandingLinkEndsTheVerificationJourneyAndTheBackendAnswers() {
        val parser = VerificationReturnParser(listOf("https://partner.example/kyc/done", privueLanding))
        val machine = VerificationMachine("kyc", parser, PollingPolicy(2, 30))
        machine.handle(VerificationMachine.Event.VerifyTapped(0))
        machine.handle(VerificationMachine.Event.HandoffCreated(SensitiveUrl("https://verify.privue.example/acme#ticket=t")))
        assertEquals(
            listOf(
                VerificationMachine.Action.DismissWebView, VerificationMachine.Action.Render(VerificationScreen.Confirming()),
                VerificationMachine.Action.FetchStatus("kyc"), VerificationMachine.Action.ScheduleTick(33_000)
            ),
            machine.handle(VerificationMachine.Event.ReturnLink(privueLanding, 3000))
        )
        machine.handle(VerificationMachine.Event.StatusReceived("rejected", 3100))
        assertEquals(VerificationScreen.Settled("rejected"), machine.screen)
    }
}
