package baton.client

import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test

/** The flow objects over the SDK's own backend client and a recording transport: what each tap sends and shows. */
class FlowsTest {
    private val wait = 10_000L

    private class ChiaRecorder : ChiaHandoff.Listener {
        val screens = Screens<ChiaScreen>()
        var signIn = 0
        val browserFailures = mutableListOf<BrowserCompletion>()
        override fun onScreen(screen: ChiaScreen) = screens.add(screen)
        override fun onSignInRequired() {
            signIn += 1
        }
        override fun onBrowserFailed(completion: BrowserCompletion) {
            browserFailures += completion
        }
    }

    private fun waitFor(condition: () -> Boolean): Boolean {
        val deadline = System.currentTimeMillis() + wait
        val lock = Object()
        while (!condition()) {
            if (System.currentTimeMillis() > deadline) return false
            synchronized(lock) { lock.wait(10) }
        }
        return true
    }

    @Test
    fun chiaRequestsNothingBeforeTheTapJoinsADoubleTapAndNeverKeepsOrPrintsTheJourneyUrl() {
        val transport = SdkFixtures.backend()
        val storage = InMemoryBatonStorage()
        val store = BatonUserStore(storage, SdkFixtures.USER)
        val presenter = FakePresenter({ BrowserCompletion.HandedToSystem })
        val recorder = ChiaRecorder()
        val flow = SdkFixtures.client(transport, storage).chiaHandoff("item-1", presenter, recorder)
        flow.start()
        flow.foregrounded()
        flow.backgrounded()
        assertTrue(flow.awaitIdle(wait))
        assertEquals(emptyList<String>(), transport.requests.map { it.toString() })
        assertEquals(listOf(ChiaScreen.Content.CARD), recorder.screens.all.map { it.content })
        flow.callToActionTapped()
        assertTrue(flow.awaitIdle(wait))
        assertEquals(listOf("GET /v2/catalog"), transport.requests.map { it.toString() })
        flow.shareTapped()
        flow.shareTapped()
        flow.shareTapped()
        assertTrue(flow.awaitIdle(wait))
        assertEquals(listOf("GET /v2/catalog", "POST /v2/handoff-sessions"), transport.requests.map { it.toString() })
        assertEquals(listOf(SdkFixtures.JOURNEY), presenter.presented.map { it.first })
        assertEquals(BrowserStyle.ExternalBrowser, presenter.presented[0].second)
        assertTrue(storage.contents.isEmpty())
        for (text in recorder.screens.texts + transport.lines) assertFalse(text, text.contains("phs_secret"))
    }

    @Test
    fun chiaKeepsTheAttemptInTheStoreUntilItIsDoneAndRestoresItWithoutARequest() {
        var fail = true
        val transport = SdkFixtures.backend { if (fail && it.path == "/v2/handoff-sessions") SdkFixtures.problem(502, "provider_unavailable") else null }
        val storage = InMemoryBatonStorage()
        val store = BatonUserStore(storage, SdkFixtures.USER)
        val recorder = ChiaRecorder()
        val flow = SdkFixtures.client(transport, storage).chiaHandoff("item-1", FakePresenter({ BrowserCompletion.HandedToSystem }), recorder)
        flow.callToActionTapped()
        assertTrue(flow.awaitIdle(wait))
        flow.shareTapped()
        assertTrue(flow.awaitIdle(wait))
        val kept = store.loadPendingAttempt("item-1")!!
        assertEquals(transport.requests[1].header("Idempotency-Key"), kept.key.value)
        assertEquals(String(transport.requests[1].body!!), kept.bodyJson())
        for (text in storage.contents) assertFalse(text.contains("https://"))
        // A new process: the kept attempt comes back, and only the CTA's projection fetch is sent before the share.
        fail = false
        val again = SdkFixtures.client(transport, storage).chiaHandoff("item-1", FakePresenter({ BrowserCompletion.HandedToSystem }), ChiaRecorder())
        again.start()
        assertTrue(again.awaitIdle(wait))
        again.shareTapped()
        assertTrue(again.awaitIdle(wait))
        val shares = transport.requests.filter { it.path == "/v2/handoff-sessions" }
        assertEquals(2, shares.size)
        assertEquals(shares[0].header("Idempotency-Key"), shares[1].header("Idempotency-Key"))
        assertEquals(String(shares[0].body!!), String(shares[1].body!!))
        assertEquals(null, store.loadPendingAttempt("item-1"))
    }

    @Test
    fun chiaAsksForSignInOn401AndRefetchesAfterAFailedOpen() {
        var status = 401
        val transport = SdkFixtures.backend { if (status == 401 && it.path == "/v2/handoff-sessions") SdkFixtures.problem(401, "unauthorized") else null }
        val recorder = ChiaRecorder()
        val flow = SdkFixtures.client(transport).chiaHandoff("item-1", FakePresenter({ BrowserCompletion.FailedToOpen }), recorder)
        flow.callToActionTapped()
        assertTrue(flow.awaitIdle(wait))
        flow.shareTapped()
        assertTrue(flow.awaitIdle(wait))
        assertEquals(1, recorder.signIn)
        assertEquals(ChiaScreen.Notice.SIGN_IN_REQUIRED, recorder.screens.last?.notice)
        status = 201
        flow.shareTapped()
        assertTrue(flow.awaitIdle(wait))
        assertEquals(listOf<BrowserCompletion>(BrowserCompletion.FailedToOpen), recorder.browserFailures)
        // The failed open fetched the card again and shows it, usable: never a stuck screen.
        assertEquals(2, transport.requests.count { it.path == "/v2/catalog" })
        assertEquals(ChiaScreen.Content.SHARE_OR_NEUTRAL, recorder.screens.last?.content)
        assertTrue(recorder.screens.last!!.shareEnabled)
    }

    @Test
    fun aPresenterThatThrowsIsAFailedOpenNotACrash() {
        val recorder = ChiaRecorder()
        val flow = SdkFixtures.client(SdkFixtures.backend()).chiaHandoff("item-1", FakePresenter({ BrowserCompletion.HandedToSystem }, throwing = true), recorder)
        flow.callToActionTapped()
        assertTrue(flow.awaitIdle(wait))
        flow.continueTapped()
        assertTrue(flow.awaitIdle(wait))
        assertEquals(listOf<BrowserCompletion>(BrowserCompletion.FailedToOpen), recorder.browserFailures)
    }

    @Test
    fun verificationThatCannotOpenEndsOnATypedFailureAndVerifyWorksAgain() {
        val transport = SdkFixtures.backend()
        val screens = Screens<VerificationScreen>()
        var answer: BrowserCompletion = BrowserCompletion.FailedToOpen
        val presenter = FakePresenter({ answer })
        val flow = SdkFixtures.client(transport).verification("kyc", presenter, object : Verification.Listener {
            override fun onScreen(screen: VerificationScreen) = screens.add(screen)
        })
        flow.verifyTapped()
        assertTrue(flow.awaitIdle(wait))
        assertEquals(VerificationScreen.CouldNotStart(null, BrowserFailure.FAILED_TO_OPEN), screens.last)
        assertEquals(listOf("POST /v2/verification-handoffs"), transport.requests.map { it.toString() })
        val style = presenter.presented[0].second as BrowserStyle.CameraWebView
        assertEquals(listOf("https://partner.example/kyc/done"), style.returnUrls.map { it.string })
        answer = BrowserCompletion.Returned("https://partner.example/kyc/done?verification_id=v_1&status=approved")
        flow.verifyTapped()
        assertTrue(flow.awaitIdle(wait))
        assertEquals(VerificationScreen.Settled("approved"), screens.last)
        assertEquals(listOf(SdkFixtures.HANDOFF, SdkFixtures.HANDOFF), presenter.presented.map { it.first })
        flow.stop()
    }

    @Test
    fun verificationClosedWithoutAReturnAsksTheBackend() {
        val transport = SdkFixtures.backend()
        val screens = Screens<VerificationScreen>()
        val flow = SdkFixtures.client(transport).verification("kyc", FakePresenter({ BrowserCompletion.ClosedWithoutReturn }), object : Verification.Listener {
            override fun onScreen(screen: VerificationScreen) = screens.add(screen)
        })
        flow.verifyTapped()
        assertTrue(flow.awaitIdle(wait))
        assertEquals(listOf("POST /v2/verification-handoffs", "GET /v2/verifications/kyc"), transport.requests.map { it.toString() })
        assertEquals(VerificationScreen.Settled("approved"), screens.last)
        flow.stop()
    }

    @Test
    fun bankConnectThatCannotOpenEndsOnATypedFailureAndForgetsTheSession() {
        val storage = InMemoryBatonStorage()
        val store = BatonUserStore(storage, SdkFixtures.USER)
        val screens = Screens<ConnectScreen>()
        val presenter = FakePresenter({ BrowserCompletion.FailedToOpen })
        val flow = SdkFixtures.client(SdkFixtures.backend(), storage).bankConnect(presenter, object : BankConnect.Listener {
            override fun onScreen(screen: ConnectScreen) = screens.add(screen)
        })
        flow.start()
        flow.connectTapped()
        assertTrue(flow.awaitIdle(wait))
        assertEquals(ConnectScreen.CouldNotStart(null, BrowserFailure.FAILED_TO_OPEN), screens.last)
        assertEquals(null, store.loadPendingSessionId())
        assertTrue(presenter.presented[0].second is BrowserStyle.CustomTab)
        assertEquals(SdkFixtures.HOSTED, presenter.presented[0].first)
        for (text in screens.texts) assertFalse(text.contains("secret"))
    }

    @Test
    fun bankConnectKeepsOnlyTheSessionIdAndConfirmsItOnAColdStart() {
        val storage = InMemoryBatonStorage()
        val store = BatonUserStore(storage, SdkFixtures.USER)
        val transport = SdkFixtures.backend()
        // The first process opens the tab and dies before any return.
        val first = SdkFixtures.client(transport, storage).bankConnect(object : BrowserPresenter {
            override fun present(url: SensitiveUrl, style: BrowserStyle, completion: (BrowserCompletion) -> Unit) {}
        }, object : BankConnect.Listener {
            override fun onScreen(screen: ConnectScreen) {}
        })
        first.start()
        first.connectTapped()
        assertTrue(waitFor { store.loadPendingSessionId() != null })
        first.stop()
        assertEquals(listOf("cs_1"), storage.contents)
        // The return link starts a new process: the library's redirect activity hands it over.
        val screens = Screens<ConnectScreen>()
        val cold = SdkFixtures.client(transport, storage).bankConnect(FakePresenter({ BrowserCompletion.Failed }), object : BankConnect.Listener {
            override fun onScreen(screen: ConnectScreen) = screens.add(screen)
        })
        cold.start("https://app.example.com/bb-callback?sessionId=cs_1&resultCode=Ok")
        assertTrue(cold.awaitIdle(wait))
        assertEquals(ConnectScreen.Connected, screens.last)
        assertEquals("GET /v2/connect-sessions/cs_1", transport.requests.last().toString())
        assertEquals(null, store.loadPendingSessionId())
    }

    @Test
    fun aConfigurationTheSdkCannotUseIsRefusedWithACode() {
        fun code(block: () -> Unit): String? = try {
            block()
            null
        } catch (e: BatonConfigurationException) {
            e.code
        }
        val base = SdkFixtures.client(SdkFixtures.backend()).configuration
        val listener = object : BankConnect.Listener {
            override fun onScreen(screen: ConnectScreen) {}
        }
        val presenter = FakePresenter({ BrowserCompletion.Failed })
        assertEquals("bb_callback_kind_unknown", code { BatonClient(base.copy(bbCallbackKind = "intent")) })
        assertEquals("bb_callback_not_registered", code {
            BatonClient(base.copy(bbCallbackKind = "custom-scheme", bbReturnUrls = listOf("https://app.example.com/bb-callback"))).bankConnect(presenter, listener)
        })
        assertEquals("backend_url_not_https", code { BatonClient(base.copy(backendBaseUrl = "http://partner.example")) })
        assertEquals("not_https", code {
            BatonClient(base.copy(privueReturnUrls = listOf("acmewallet://kyc"))).verification("kyc", presenter, object : Verification.Listener {
                override fun onScreen(screen: VerificationScreen) {}
            })
        })
        assertFalse(base.toString().contains(SdkFixtures.TOKEN))
        assertEquals("registered_for_two_flows", code {
            BatonClient(base.copy(privueReturnUrls = listOf("https://app.example.com/bb-callback"))).linkRouter
        })
        assertEquals(BatonLinkRouter.Flow.VERIFICATION, BatonClient(base).linkRouter.route("https://partner.example/kyc/done?verification_id=v").flow)
    }

    @Test
    fun theCameraWebViewLoadsSandboxPagesOnlyUnderDevelopment() {
        val returns = listOf(RegisteredReturnUrl("https://app.example.com/kyc/done"))
        assertEquals(JourneyNavigation.BLOCK, JourneyNavigation.decide("http://127.0.0.1:8082/acme/kyc", returns))
        assertEquals(JourneyNavigation.ALLOW, JourneyNavigation.decide("http://127.0.0.1:8082/acme/kyc", returns, UrlPolicy.DEVELOPMENT))
        assertEquals(JourneyNavigation.BLOCK, JourneyNavigation.decide("http://privue.example/acme/kyc", returns, UrlPolicy.DEVELOPMENT))
        assertEquals(JourneyNavigation.RETURN, JourneyNavigation.decide("https://app.example.com/kyc/done?verification_id=v", returns, UrlPolicy.DEVELOPMENT))
    }

    @Test
    fun theStoredAttemptIsExactlyTheBodyAndKeyAndADamagedOneIsIgnored() {
        val attempt = PendingAttempt(IdempotencyKey.of("3f2504e0-4f89-41d3-9a0c-0305e82c3301")!!, "item-1", "dv-\"1", "2026-01-01T00:00:05Z")
        assertEquals(attempt, PendingAttempts.decode(PendingAttempts.encode(attempt)))
        for (bad in listOf("", "{}", "{\"key\":\"nope\",\"body\":\"{}\"}", PendingAttempts.encode(attempt).replace("true", "false"))) {
            assertEquals(bad, null, PendingAttempts.decode(bad))
        }
    }
}
