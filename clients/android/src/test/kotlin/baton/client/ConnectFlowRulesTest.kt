package baton.client

import org.junit.Assert.assertEquals
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.junit.runners.Parameterized

/** BB on Android: any delivery ends the browser phase; a cold-start return confirms the kept id. */
@RunWith(Parameterized::class)
class ConnectFlowRulesTest(private val delivered: String) {
    companion object {
        @JvmStatic
        @Parameterized.Parameters(name = "{0}")
        fun links() = listOf(
            "https://app.example.com/bb-callback?sessionId=ses_1&resultCode=Ok",
            "https://app.example.com/bb-callback?sessionId=ses_1&resultCode=ok",
            "https://app.example.com/bb-callback?sessionId=ses_2&resultCode=Ok",
            "https://app.example.com/bb-callback?resultCode=Ok",
            "acmewallet://other-path?sessionId=ses_1&resultCode=Ok",
            "not a url"
        )
    }

    private val parser = ConnectReturnParser(listOf("https://app.example.com/bb-callback", "acmewallet://bb-callback"))
    private val policy = PollingPolicy(2, 20)

    private val tracker = CustomTabReturnTracker()

    private fun inBrowser(): ConnectMachine {
        val machine = ConnectMachine(CallbackKind.HTTPS, parser, policy)
        machine.handle(ConnectMachine.Event.ConnectTapped(0))
        machine.handle(ConnectMachine.Event.SessionCreated("ses_1", SensitiveUrl("https://bb.example/s/x"), CallbackKind.HTTPS))
        tracker.opened()
        return machine
    }

    @Test
    fun anyDeliveryFromTheTabEndsTheBrowserPhaseAndAsksAboutTheBackendsSession() {
        val machine = inBrowser()
        val actions = machine.handle(tracker.linkDelivered(delivered, 3000)!!)
        assertEquals(listOf(ConnectMachine.Action.FetchSession("ses_1")), actions.filterIsInstance<ConnectMachine.Action.FetchSession>())
        // onResume after the delivery is not a second "closed".
        assertNull(tracker.resumed(3001))
        // The flow is not stranded: once settled, Connect works again.
        machine.handle(ConnectMachine.Event.SessionStateReceived("ses_1", ConnectSessionStatus.CANCELLED, 4000))
        assertTrue(machine.handle(ConnectMachine.Event.ConnectTapped(5000)).contains(ConnectMachine.Action.CreateSession(CallbackKind.HTTPS)))
    }

    @Test
    fun aReturnThatStartsTheAppColdConfirmsTheKeptSessionBeforeAnyRestore() {
        val machine = ConnectMachine(CallbackKind.HTTPS, parser, policy, storedPendingSessionId = "ses_1")
        val actions = machine.handle(CustomTabReturnTracker.coldStart(delivered, "ses_1", 1000)!!)
        assertEquals(listOf(ConnectMachine.Action.FetchSession("ses_1")), actions.filterIsInstance<ConnectMachine.Action.FetchSession>())
        assertEquals(emptyList<ConnectMachine.Action>(), machine.handle(ConnectMachine.Event.Restored("ses_1", 1002)))
    }
}

/** The rest of the BB rules that are not per link. */
class ConnectLifecycleTest {
    private val parser = ConnectReturnParser(listOf("https://app.example.com/bb-callback"))

    @Test
    fun backInTheAppWithoutALinkIsClosedAndStillConfirmed() {
        val machine = ConnectMachine(CallbackKind.HTTPS, parser, PollingPolicy(2, 20))
        val tracker = CustomTabReturnTracker()
        machine.handle(ConnectMachine.Event.ConnectTapped(0))
        val opened = machine.handle(ConnectMachine.Event.SessionCreated("ses_9", SensitiveUrl("https://bb.example/s/y"), CallbackKind.HTTPS))
        tracker.opened()
        assertEquals(ConnectMachine.Action.KeepPendingSession("ses_9"), opened.first())
        assertTrue(opened.none { it.toString().contains("bb.example") })
        val closed = machine.handle(tracker.resumed(5000)!!)
        assertEquals(
            listOf(
                ConnectMachine.Action.Render(ConnectScreen.Cancelled), ConnectMachine.Action.FetchSession("ses_9"),
                ConnectMachine.Action.ScheduleTick(25_000)
            ),
            closed
        )
        assertNull(tracker.resumed(6000))
        val settled = machine.handle(ConnectMachine.Event.SessionStateReceived("ses_9", ConnectSessionStatus.OK, 7000))
        assertEquals(listOf(ConnectMachine.Action.ForgetPendingSession, ConnectMachine.Action.Render(ConnectScreen.Connected)), settled)
    }

    @Test
    fun aColdStartWithAKeptSessionAndNoLinkRestoresAndConfirms() {
        val machine = ConnectMachine(CallbackKind.HTTPS, parser, PollingPolicy(2, 20), storedPendingSessionId = "ses_4")
        val actions = machine.handle(CustomTabReturnTracker.coldStart(null, "ses_4", 1000)!!)
        assertEquals(
            listOf(
                ConnectMachine.Action.Render(ConnectScreen.Confirming(ConnectReturnHint.RESUMED)),
                ConnectMachine.Action.FetchSession("ses_4"), ConnectMachine.Action.ScheduleTick(21_000)
            ),
            actions
        )
    }

    @Test
    fun anOsLinkWhileTheTabIsNotOpenKeepsAppAuthsChecks() {
        val machine = ConnectMachine(CallbackKind.HTTPS, parser, PollingPolicy(2, 20), storedPendingSessionId = "ses_4")
        val tracker = CustomTabReturnTracker()
        val other = "https://app.example.com/bb-callback?sessionId=ses_5&resultCode=Ok"
        assertEquals(emptyList<ConnectMachine.Action>(), machine.handle(tracker.linkDelivered(other, 0)!!))
        val bare = machine.handle(tracker.linkDelivered("https://app.example.com/bb-callback", 1)!!)
        assertEquals(listOf(ConnectMachine.Action.FetchSession("ses_4")), bare.filterIsInstance<ConnectMachine.Action.FetchSession>())
    }

    @Test
    fun aColdStartWithNothingKeptIgnoresLinks() {
        val machine = ConnectMachine(CallbackKind.HTTPS, parser, PollingPolicy(2, 20))
        val link = "https://app.example.com/bb-callback?sessionId=ses_1&resultCode=Ok"
        assertEquals(emptyList<ConnectMachine.Action>(), machine.handle(ConnectMachine.Event.ReturnLink(link, 0)))
    }
}
