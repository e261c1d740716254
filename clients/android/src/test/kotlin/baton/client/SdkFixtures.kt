package baton.client

/** Canned backend answers and a fake presenter for the SDK's unit tests (no network). */
object SdkFixtures {
    const val BASE = "https://partner.example"
    const val TOKEN = "bt1.secret-token"
    const val USER = "alice"
    const val JOURNEY = "https://chia.example/h/phs_secret123"
    const val HOSTED = "https://bb.example/connect/cs_1?state=secret"
    const val HANDOFF = "https://privue.example/acme/kyc#ticket=secret-ticket"

    fun card(id: String = "item-1", neutralUrl: String = "https://chia.example/c/item-1") =
        """{"id":"$id","presentation_contract":{"block_order":["image","title","summary","price"]},
        "title":"T","summary":"S","priceText":"P","image":{"url":"https://partner.example/a.png","alt":"A"},
        "handoff":{"mode":"share_or_neutral","heading":"H","body":"B",
        "recipient":{"legal_name":"Chia","privacy_contact":"p@chia.example"},"dataShared":["x"],"purpose":"p",
        "compensationDisclosure":"c","policyUrls":{"privacy":"https://chia.example/privacy"},"primary":{"actionLabel":"Share selection and continue",
        "sessionCreationPath":"/v2/handoff-sessions","disclosureVersion":"dv-1"},
        "secondary":{"actionLabel":"Continue without sharing","url":"$neutralUrl"}}}"""

    fun response(status: Int, body: String, vararg headers: Pair<String, String>) =
        HttpResponse(status, mapOf(*headers), body.toByteArray())

    fun problem(status: Int, code: String, vararg headers: Pair<String, String>) = response(
        status, """{"type":"about:blank","title":"t","status":$status,"code":"$code"}""",
        "Content-Type" to "application/problem+json", *headers
    )

    /** A backend that answers every route well, unless [override] answers first. */
    fun backend(override: (HttpRequest) -> HttpResponse? = { null }): RecordingTransport = RecordingTransport(respond = { request ->
        override(request) ?: when {
            request.path == "/v2/catalog" -> response(200, """{"items":[${card()}]}""")
            request.path == "/v2/handoff-sessions" -> response(201, """{"expiresAt":"2026-01-01T00:15:00Z","url":"$JOURNEY"}""")
            request.path == "/v2/verification-handoffs" -> response(200, """{"expiresInSeconds":120,"url":"$HANDOFF"}""")
            request.path.startsWith("/v2/verifications/") -> response(200, """{"status":"approved","verificationId":"v_1"}""")
            request.path == "/v2/connect-sessions" ->
                response(201, """{"callback":{"host":"app.example.com","kind":"https","path":"/bb-callback"},"hostedUrl":"$HOSTED","sessionId":"cs_1"}""")
            request.path.startsWith("/v2/connect-sessions/") -> response(200, """{"connectionId":"conn_1","sessionId":"cs_1","status":"ok"}""")
            else -> response(404, "")
        }
    })

    fun client(
        transport: HttpTransport, storage: BatonStorage = InMemoryBatonStorage(), token: String? = TOKEN, user: String = USER,
        eraser: JourneyWebDataEraser? = null
    ) = BatonClient(
        BatonConfiguration(
            backendBaseUrl = BASE, userId = user, tokenProvider = { token }, journeyWebData = eraser,
            bbReturnUrls = listOf("https://app.example.com/bb-callback", "acmewallet://bb-callback"),
            privueReturnUrls = listOf("https://partner.example/kyc/done"), storage = storage, transport = transport,
            polling = PollingPolicy(1, 3)
        )
    )
}

/** A presenter that records what it was asked and answers [answer] (or throws when [throwing]). */
class FakePresenter(private val answer: (BrowserStyle) -> BrowserCompletion, private val throwing: Boolean = false) : BrowserPresenter {
    val presented = java.util.Collections.synchronizedList(mutableListOf<Pair<String, BrowserStyle>>())

    override fun present(url: SensitiveUrl, style: BrowserStyle, completion: (BrowserCompletion) -> Unit) {
        if (throwing) throw IllegalStateException("no activity")
        presented += url.reveal() to style
        completion(answer(style))
    }
}

/** Collects every screen a flow reports, and every text the app could print or log from it. */
class Screens<T> {
    val all = java.util.Collections.synchronizedList(mutableListOf<T>())
    val texts = java.util.Collections.synchronizedList(mutableListOf<String>())
    val last: T? get() = synchronized(all) { all.lastOrNull() }

    fun add(screen: T) {
        all += screen
        texts += screen.toString()
    }
}
