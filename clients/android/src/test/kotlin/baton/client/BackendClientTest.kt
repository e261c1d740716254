package baton.client

import com.sun.net.httpserver.HttpServer
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test
import java.net.InetSocketAddress
import java.util.ArrayDeque

/** HttpBackendClient against a recording transport (docs/CONTRACTS.md §2), and the HttpURLConnection transport itself. */
class BackendClientTest {
    private fun client(transport: HttpTransport, policy: UrlPolicy = UrlPolicy.PRODUCTION, base: String = SdkFixtures.BASE, token: String? = SdkFixtures.TOKEN) =
        HttpBackendClient(base, { token }, transport, policy)

    private fun error(block: () -> Unit): BackendError {
        try {
            block()
        } catch (e: BackendException) {
            return e.error
        }
        fail("expected a BackendException")
        throw AssertionError()
    }

    private val attempt = PendingAttempt(IdempotencyKey.of("3f2504e0-4f89-41d3-9a0c-0305e82c3301")!!, "item-1", "dv-1", "2026-01-01T00:00:05Z")

    @Test
    fun everyRouteSendsTheBearerTokenAndTheContractsPathAndBody() {
        val transport = SdkFixtures.backend()
        val backend = client(transport)
        assertEquals(listOf("item-1"), backend.catalog().map { it.id })
        val session = backend.createHandoffSession(attempt)
        val handoff = backend.createVerificationHandoff("merchant-onboarding")
        assertEquals(VerificationState("v_1", "approved"), backend.verification("merchant-onboarding"))
        val connect = backend.createConnectSession(CallbackKind.HTTPS)
        assertEquals(ConnectSessionState("cs_1", ConnectSessionStatus.OK, "conn_1", null), backend.connectSession("cs_1"))
        assertEquals(
            listOf("GET /v2/catalog", "POST /v2/handoff-sessions", "POST /v2/verification-handoffs",
                "GET /v2/verifications/merchant-onboarding", "POST /v2/connect-sessions", "GET /v2/connect-sessions/cs_1"),
            transport.requests.map { it.toString() })
        for (request in transport.requests) {
            assertEquals("Bearer ${SdkFixtures.TOKEN}", request.header("authorization"))
            assertEquals("application/json, application/problem+json", request.header("Accept"))
            assertTrue(request.url.startsWith(SdkFixtures.BASE + "/v2/"))
        }
        val share = transport.requests[1]
        assertEquals(attempt.key.value, share.header("Idempotency-Key"))
        assertEquals(attempt.bodyJson(), String(share.body!!))
        assertEquals("application/json", share.header("Content-Type"))
        assertEquals("{\"workflow\":\"merchant-onboarding\"}", String(transport.requests[2].body!!))
        assertEquals("{\"callback\":\"https\"}", String(transport.requests[4].body!!))
        assertNull(transport.requests[0].body)
        // The journey URLs are kept whole (fragment included) and never printed.
        assertEquals(SdkFixtures.JOURNEY, session.url.reveal())
        assertEquals(SdkFixtures.HANDOFF, handoff.url.reveal())
        assertEquals(SdkFixtures.HOSTED, connect.hostedUrl.reveal())
        for (text in listOf(session.toString(), handoff.toString(), connect.toString(), transport.requests.toString())) {
            assertFalse(text, text.contains("secret"))
        }
    }

    @Test
    fun anOpaqueIdIsOnePercentEncodedSegment() {
        val transport = SdkFixtures.backend { SdkFixtures.response(200, """{"sessionId":"x","status":"pending"}""") }
        client(transport).connectSession("a/b c?d#é")
        assertEquals(SdkFixtures.BASE + "/v2/connect-sessions/a%2Fb%20c%3Fd%23%C3%A9", transport.requests[0].url)
    }

    @Test
    fun problemAnswersKeepStatusCodeAndRetryAfterAndClassifyAsTheSharedRule() {
        val answers = ArrayDeque(listOf(
            SdkFixtures.problem(409, "projection_changed"),
            SdkFixtures.problem(503, "provider_timeout", "Retry-After" to "7"),
            SdkFixtures.problem(429, "rate_limited", "retry-after" to "Sun, 06 Nov 1994 08:49:40 GMT"),
            SdkFixtures.problem(422, "some_future_code"),
            SdkFixtures.response(401, "not json", "WWW-Authenticate" to "Bearer"),
            SdkFixtures.response(500, "")
        ))
        val backend = client(RecordingTransport(respond = { answers.removeFirst() }))
        val now = Rfc3339.parse("1994-11-06T08:49:37Z")
        val conflict = error { backend.createHandoffSession(attempt) }
        assertEquals(BackendError.Http(409, ProblemCode.PROJECTION_CHANGED, null), conflict)
        assertEquals(RetryDecision.RefetchProjection, conflict.retryDecision(now))
        val timeout = error { backend.createHandoffSession(attempt) }
        assertEquals(BackendError.Http(503, "provider_timeout", "7"), timeout)
        assertEquals(RetryDecision.Retry(7), timeout.retryDecision(now))
        assertEquals(RequestFailure.RETRYABLE, timeout.failure)
        assertEquals(RetryDecision.Retry(3), error { backend.createHandoffSession(attempt) }.retryDecision(now))
        val future = error { backend.createHandoffSession(attempt) } as BackendError.Http
        assertEquals("some_future_code", future.problemCode)
        assertEquals(RequestFailure.DEFINITIVE, future.failure)
        val unauthorized = error { backend.createHandoffSession(attempt) }
        assertEquals(BackendError.Http(401, null, null), unauthorized)
        assertEquals(RetryDecision.SignInAndRetry, unauthorized.retryDecision(now))
        // Polling cannot sign in: a 401 ends it like a rejection.
        assertEquals(RequestFailure.DEFINITIVE, unauthorized.failure)
        assertEquals(BackendError.Http(500, null, null), error { backend.catalog() })
    }

    @Test
    fun noResponseIsATransportFailureAndRetryable() {
        val backend = client(RecordingTransport(respond = { throw TransportException(TransportFailure.TIMEOUT) }))
        val failure = error { backend.createHandoffSession(attempt) }
        assertEquals(BackendError.Transport(TransportFailure.TIMEOUT), failure)
        assertEquals(RetryDecision.Retry(null), failure.retryDecision(0))
        assertEquals(RequestFailure.RETRYABLE, failure.failure)
    }

    @Test
    fun signedOutSendsNothing() {
        val transport = SdkFixtures.backend()
        assertEquals(BackendError.NotAuthenticated, error { client(transport, token = null).catalog() })
        assertTrue(transport.requests.isEmpty())
    }

    @Test
    fun a2xxThatBreaksTheContractIsMalformedAndSafeToRetryUnchanged() {
        val bodies = listOf(
            """{"expiresAt":"x"}""", """[]""", """{"url":"http://chia.example/h/phs_1"}""", """{"url":"https://u@chia.example/h"}""",
            """{"url":42}""", "not json"
        )
        for (body in bodies) {
            val failure = error { client(SdkFixtures.backend { SdkFixtures.response(201, body) }).createHandoffSession(attempt) }
            assertEquals(body, BackendError.MalformedResponse, failure)
            assertEquals(RetryDecision.Retry(null), failure.retryDecision(0))
        }
        val badStatus = SdkFixtures.backend { SdkFixtures.response(200, """{"sessionId":"cs_1","status":"done"}""") }
        assertEquals(BackendError.MalformedResponse, error { client(badStatus).connectSession("cs_1") })
        val emptyId = SdkFixtures.backend { SdkFixtures.response(201, """{"callback":"https","hostedUrl":"https://bb.example/c","sessionId":""}""") }
        assertEquals(BackendError.MalformedResponse, error { client(emptyId).createConnectSession(CallbackKind.HTTPS) })
        val bareKind = SdkFixtures.backend { SdkFixtures.response(201, """{"callback":"custom-scheme","hostedUrl":"https://bb.example/c","sessionId":"cs_2"}""") }
        assertEquals(CallbackKind.CUSTOM_SCHEME, client(bareKind).createConnectSession(CallbackKind.CUSTOM_SCHEME).callbackKind)
    }

    @Test
    fun aCardThatDoesNotDecodeIsLeftOutAndLoopbackHttpOnlyUnderDevelopment() {
        val local = SdkFixtures.card("local", "http://127.0.0.1:8081/c/x")
        val transport = SdkFixtures.backend { SdkFixtures.response(200, """{"items":[${SdkFixtures.card()}, {"id":"broken"}, $local]}""") }
        assertEquals(listOf("item-1"), client(transport).catalog().map { it.id })
        assertEquals(listOf("item-1", "local"), client(transport, UrlPolicy.DEVELOPMENT).catalog().map { it.id })
        val remoteHttp = SdkFixtures.backend { SdkFixtures.response(200, """{"items":[${SdkFixtures.card("far", "http://chia.example/c")}]}""") }
        assertEquals(emptyList<String>(), client(remoteHttp, UrlPolicy.DEVELOPMENT).catalog().map { it.id })
        val sandboxShare = SdkFixtures.backend { SdkFixtures.response(201, """{"url":"http://127.0.0.1:8081/h/phs_1"}""") }
        assertEquals(BackendError.MalformedResponse, error { client(sandboxShare).createHandoffSession(attempt) })
        assertEquals("http://127.0.0.1:8081/h/phs_1", client(sandboxShare, UrlPolicy.DEVELOPMENT).createHandoffSession(attempt).url.reveal())
    }

    @Test
    fun theBackendUrlMustBeSecureUnderThePolicy() {
        for ((base, policy) in listOf("http://127.0.0.1:8080" to UrlPolicy.PRODUCTION, "http://10.0.2.2:8080" to UrlPolicy.DEVELOPMENT,
                "http://partner.example" to UrlPolicy.DEVELOPMENT, "https://u:p@partner.example" to UrlPolicy.PRODUCTION, "partner.example" to UrlPolicy.PRODUCTION)) {
            try {
                client(SdkFixtures.backend(), policy, base)
                fail("$base accepted under $policy")
            } catch (e: BatonConfigurationException) {
                val expected = if (policy == UrlPolicy.DEVELOPMENT) "backend_url_not_https_or_loopback" else "backend_url_not_https"
                assertEquals(expected, e.code)
            }
        }
        client(SdkFixtures.backend(), UrlPolicy.DEVELOPMENT, "http://127.0.0.1:8080/")
        client(SdkFixtures.backend(), UrlPolicy.DEVELOPMENT, "http://localhost:8080")
        client(SdkFixtures.backend(), UrlPolicy.DEVELOPMENT, "http://[::1]:8080")
    }

    @Test
    fun loopbackIsExactlyTheLocalMachine() {
        for (host in listOf("localhost", "[::1]", "127.0.0.1", "127.255.0.9")) assertTrue(host, UrlPolicy.isLoopback(host))
        for (host in listOf("127.0.0", "127.0.0.256", "128.0.0.1", "localhost.example", "127.0.0.1.example", "::1", "0127.0.0.1", "١٢٧.0.0.1")) {
            assertFalse(host, UrlPolicy.isLoopback(host))
        }
    }

    @Test
    fun errorsNeverCarryTheTokenOrAUrl() {
        val backend = client(RecordingTransport(respond = { SdkFixtures.problem(502, "provider_unavailable") }))
        try {
            backend.createHandoffSession(attempt)
            fail()
        } catch (e: BackendException) {
            assertEquals("backend answered 502 (provider_unavailable)", e.message)
        }
    }

    @Test
    fun theHttpUrlConnectionTransportFollowsNoRedirectAndReadsErrorBodies() {
        val server = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)
        server.createContext("/redirect") { exchange ->
            // Same scheme and host: HttpURLConnection would follow it unless told not to.
            exchange.responseHeaders.add("Location", "http://127.0.0.1:${exchange.localAddress.port}/problem")
            exchange.sendResponseHeaders(302, -1)
            exchange.close()
        }
        server.createContext("/problem") { exchange ->
            val body = """{"code":"rate_limited","status":429}""".toByteArray()
            exchange.responseHeaders.add("Retry-After", "2")
            exchange.sendResponseHeaders(429, body.size.toLong())
            exchange.responseBody.use { it.write(body) }
        }
        server.createContext("/echo") { exchange ->
            val body = exchange.requestBody.readBytes()
            val answer = (exchange.requestMethod + " " + exchange.requestHeaders.getFirst("Idempotency-Key") + " " + String(body)).toByteArray()
            exchange.sendResponseHeaders(200, answer.size.toLong())
            exchange.responseBody.use { it.write(answer) }
        }
        server.start()
        try {
            val origin = "http://127.0.0.1:${server.address.port}"
            val transport = HttpUrlConnectionTransport(timeoutMillis = 5_000)
            val redirect = transport.send(HttpRequest("GET", "$origin/redirect", emptyMap(), null))
            assertEquals(302, redirect.status)
            assertEquals("$origin/problem", redirect.header("location"))
            val problem = transport.send(HttpRequest("GET", "$origin/problem", emptyMap(), null))
            assertEquals(429, problem.status)
            assertEquals("2", problem.header("Retry-After"))
            assertEquals("rate_limited", HttpBackendClient.problemCode(problem.body))
            val echo = transport.send(HttpRequest("POST", "$origin/echo", mapOf("Idempotency-Key" to "k-1"), "{\"a\":1}".toByteArray()))
            assertEquals("POST k-1 {\"a\":1}", String(echo.body))
        } finally {
            server.stop(0)
        }
        // Nothing listens there any more: no response at all.
        val refused = try {
            HttpUrlConnectionTransport(timeoutMillis = 2_000).send(HttpRequest("GET", "http://127.0.0.1:${server.address.port}/", emptyMap(), null))
            null
        } catch (e: TransportException) {
            e.kind
        }
        assertEquals(TransportFailure.CONNECT, refused)
    }
}
