package baton.client

import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNotEquals
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test

/** One device, two users (docs/CONTRACTS.md §1.3; Swift's BatonUserDataTests): nothing one user kept reaches the next. */
class SignOutTest {
    private val wait = 10_000L

    private class ChiaRecorder : ChiaHandoff.Listener {
        val screens = Screens<ChiaScreen>()
        override fun onScreen(screen: ChiaScreen) = screens.add(screen)
    }

    private class CountingEraser : JourneyWebDataEraser {
        var count = 0
        override fun eraseJourneyWebData() {
            count += 1
        }
    }

    private fun chia(client: BatonClient, recorder: ChiaRecorder) =
        client.chiaHandoff("item-1", FakePresenter({ BrowserCompletion.HandedToSystem }), recorder)

    @Test
    fun anotherUsersRestoreNeverResendsTheFirstUsersAttempt() {
        var fail = true
        val transport = SdkFixtures.backend { if (fail && it.path == "/v2/handoff-sessions") SdkFixtures.problem(503, "provider_unavailable") else null }
        // The device's one storage (SharedPreferences on Android), as both users' clients get it.
        val device = InMemoryBatonStorage()
        val alice = ChiaRecorder()
        val first = chia(SdkFixtures.client(transport, device, user = "alice"), alice)
        first.callToActionTapped()
        assertTrue(first.awaitIdle(wait))
        first.shareTapped()
        assertTrue(first.awaitIdle(wait))
        assertEquals(ChiaScreen.Notice.SHARE_UNCERTAIN, alice.screens.last?.notice)
        first.stop()
        assertTrue(BatonUserStore(device, "alice").loadPendingAttempt("item-1") != null)

        // Bob signs in on the same device (Alice never signed out): his restore finds nothing, and his share is his own.
        fail = false
        val bob = ChiaRecorder()
        val second = chia(SdkFixtures.client(transport, device, user = "bob"), bob)
        second.start()
        assertTrue(second.awaitIdle(wait))
        assertEquals(listOf<ChiaScreen.Notice?>(null), bob.screens.all.map { it.notice }.distinct())
        second.callToActionTapped()
        assertTrue(second.awaitIdle(wait))
        second.shareTapped()
        assertTrue(second.awaitIdle(wait))
        val keys = transport.requests.filter { it.path == "/v2/handoff-sessions" }.map { it.header("Idempotency-Key") }
        assertEquals(2, keys.size)
        assertNotEquals("Bob's share carries his own key, never Alice's", keys[0], keys[1])
        // Alice's uncertain attempt is still hers when she comes back.
        assertEquals(keys[0], BatonUserStore(device, "alice").loadPendingAttempt("item-1")?.key?.value)
    }

    @Test
    fun aColdStartNeverConfirmsAnotherUsersBankSession() {
        val device = InMemoryBatonStorage()
        BatonUserStore(device, "alice").savePendingSessionId("cs_1")
        val transport = SdkFixtures.backend()
        val screens = Screens<ConnectScreen>()
        val flow = SdkFixtures.client(transport, device, user = "bob").bankConnect(FakePresenter({ BrowserCompletion.Failed }), object : BankConnect.Listener {
            override fun onScreen(screen: ConnectScreen) = screens.add(screen)
        })
        flow.start()
        assertTrue(flow.awaitIdle(wait))
        assertEquals(emptyList<String>(), transport.requests.map { it.toString() })
        assertEquals(ConnectScreen.Ready, screens.last)
    }

    @Test
    fun signOutStopsTheFlowsForgetsThatUsersRecordsOnlyAndErasesTheWebData() {
        val device = InMemoryBatonStorage()
        val eraser = CountingEraser()
        val attempt = PendingAttempt(IdempotencyKey.random(), "item-1", "dv-1", "2026-01-01T00:00:00Z")
        for (user in listOf("alice", "bob")) {
            BatonUserStore(device, user).savePendingAttempt(attempt)
            BatonUserStore(device, user).savePendingSessionId("cs_1")
        }
        val client = SdkFixtures.client(SdkFixtures.backend(), device, user = "alice", eraser = eraser)
        val recorder = ChiaRecorder()
        val flow = chia(client, recorder)
        client.signOut()
        assertEquals(1, eraser.count)
        assertTrue(client.isSignedOut)
        assertEquals(null, BatonUserStore(device, "alice").loadPendingAttempt("item-1"))
        assertEquals(null, BatonUserStore(device, "alice").loadPendingSessionId())
        assertEquals(attempt, BatonUserStore(device, "bob").loadPendingAttempt("item-1"))
        assertEquals("cs_1", BatonUserStore(device, "bob").loadPendingSessionId())
        assertEquals(2, device.contents.size)
        // The stopped flow ignores later taps and writes nothing; the client starts no new flow.
        flow.start()
        flow.callToActionTapped()
        assertTrue(flow.awaitIdle(wait))
        assertEquals(emptyList<ChiaScreen>(), recorder.screens.all)
        client.userStore.savePendingSessionId("cs_2")
        assertEquals(null, client.userStore.loadPendingSessionId())
        try {
            chia(client, ChiaRecorder())
            fail("a signed-out client started a flow")
        } catch (expected: BatonSignedOutException) {
        }
        // Signing out twice is harmless.
        client.signOut()
        assertEquals(2, eraser.count)
        assertEquals(2, device.contents.size)
    }

    @Test
    fun signOutDropsTheReturnLinkAColdStartKept() {
        val registry = PresentationRegistry.shared
        // No Custom Tab is open (the process was restarted): the redirect activity keeps the link for the next start.
        assertFalse(registry.deliverLink("https://app.example.com/bb-callback?sessionId=cs_1&resultCode=Ok"))
        SdkFixtures.client(SdkFixtures.backend()).signOut()
        assertEquals("the next user's BankConnect.start must not get the last user's link", null, registry.takePendingLink())
    }

    @Test
    fun everyUserIdGetsItsOwnPrefixAndNoPrefixHoldsAnothers() {
        val ids = listOf("", "..", "a/b", "a", "b", "ab", "ü", "users/u61", "x".repeat(300), "x".repeat(299))
        val prefixes = ids.map { BatonUserStore(InMemoryBatonStorage(), it).prefix }
        assertEquals(ids.size, prefixes.toSet().size)
        for ((i, p) in prefixes.withIndex()) {
            assertTrue(p, p.startsWith("users/u") && p.endsWith("/") && p.count { it == '/' } == 2)
            for ((j, q) in prefixes.withIndex()) if (i != j) assertFalse("${ids[i]} / ${ids[j]}", q.startsWith(p))
        }
    }
}

/** [BatonClient.handleLink]: every OS link goes through [BatonLinkRouter] to its flow, bare landing links included. */
class HandleLinkTest {
    private val wait = 10_000L

    @Test
    fun aBareLandingLinkReachesTheBankFlowWhichConfirmsItsKeptSession() {
        val device = InMemoryBatonStorage()
        BatonUserStore(device, SdkFixtures.USER).savePendingSessionId("cs_1")
        val transport = SdkFixtures.backend()
        val client = SdkFixtures.client(transport, device)
        val screens = Screens<ConnectScreen>()
        val flow = client.bankConnect(FakePresenter({ BrowserCompletion.Failed }), object : BankConnect.Listener {
            override fun onScreen(screen: ConnectScreen) = screens.add(screen)
        })
        val route = client.handleLink("https://app.example.com/bb-callback", bankConnect = flow)
        assertEquals(BatonLinkRouter.Route(BatonLinkRouter.Flow.BANK_CONNECT, true, null), route)
        assertTrue(flow.awaitIdle(wait))
        assertEquals(listOf("GET /v2/connect-sessions/cs_1"), transport.requests.map { it.toString() })
        assertEquals(ConnectScreen.Connected, screens.last)
    }

    @Test
    fun chiaGenericReturnGoesHomeAndForeignLinksStayTheApps() {
        val client = BatonClient(BatonConfiguration(
            backendBaseUrl = SdkFixtures.BASE, userId = SdkFixtures.USER, tokenProvider = { SdkFixtures.TOKEN },
            privueReturnUrls = listOf("https://partner.example/kyc/done"), chiaGenericReturnHost = "partner.example",
            transport = SdkFixtures.backend()
        ))
        var home = 0
        val generic = client.handleLink("https://partner.example/anything?status=done", marketplaceHome = { home += 1 })
        assertEquals(BatonLinkRouter.Route(BatonLinkRouter.Flow.CHIA_GENERIC_RETURN, false, null), generic)
        assertEquals(1, home)
        val privue = client.handleLink("https://partner.example/kyc/done", marketplaceHome = { home += 1 })
        assertEquals("a Privue path on Chia's host is Privue's", BatonLinkRouter.Route(BatonLinkRouter.Flow.VERIFICATION, true, null), privue)
        assertEquals(BatonLinkRouter.Route.none(BatonLinkRouter.Refusal.UNREGISTERED_URL), client.handleLink("https://news.example/", marketplaceHome = { home += 1 }))
        assertEquals(BatonLinkRouter.Route.none(BatonLinkRouter.Refusal.USERINFO_PRESENT), client.handleLink("https://u@partner.example/", marketplaceHome = { home += 1 }))
        assertEquals(1, home)
    }
}
