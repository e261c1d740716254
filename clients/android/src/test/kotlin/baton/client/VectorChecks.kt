package baton.client

/** One shared vector case checked against this shell: `null` when it passed, else what differed. */
@Suppress("UNCHECKED_CAST")
object VectorChecks {
    /** `return-links.v1.json`: the parser's answer as `baton parse-return` prints it. */
    fun returnLink(case: Map<String, Any?>): String? {
        val url = case["url"] as String
        val actual: Map<String, Any?> = try {
            when (case["flow"]) {
                "connect" -> when (val r = ConnectReturnParser(case["registered"] as List<String>).parse(url)) {
                    is ReturnLinkResult.Accepted -> mapOf(
                        "isReturn" to true, "sessionId" to r.value.sessionId, "resultCode" to r.value.resultCode.wire,
                        "connectionId" to r.value.connectionId, "error" to r.value.error
                    )
                    is ReturnLinkResult.Rejected -> rejected(r)
                }
                "verification" -> when (val r = VerificationReturnParser(case["registered"] as List<String>).parse(url)) {
                    is ReturnLinkResult.Accepted ->
                        mapOf("isReturn" to true, "verificationId" to r.value.verificationId, "status" to r.value.statusHint)
                    is ReturnLinkResult.Rejected -> rejected(r)
                }
                else -> when (val r = GenericReturnParser(case["registeredHost"] as String).parse(url)) {
                    is ReturnLinkResult.Accepted -> mapOf("isReturn" to true, "route" to r.value)
                    is ReturnLinkResult.Rejected -> rejected(r)
                }
            }
        } catch (e: ReturnUrlRegistrationException) {
            mapOf("usageError" to e.code)
        }
        return if (actual == case["expect"]) null else "got ${JsonValues.text(actual)}"
    }

    private fun rejected(r: ReturnLinkResult.Rejected) = mapOf("isReturn" to false, "reason" to r.reason.reason)

    /** `retry-classification.v1.json`: the decision for one share outcome. */
    fun retry(case: Map<String, Any?>, nowMillis: Long): String? {
        val outcome = case["outcome"] as Map<String, Any?>
        val transport = outcome["transport"] as String?
        val decision = RetryDecision.classify(
            if (transport != null) ShareOutcome.Transport(TransportFailure.of(transport)!!)
            else ShareOutcome.Response((outcome["status"] as Long).toInt(), outcome["retryAfter"] as String?),
            nowMillis
        )
        val actual: Map<String, Any?> = when (decision) {
            is RetryDecision.Retry -> mapOf("decision" to "retry", "retryAfterSeconds" to decision.afterSeconds?.toLong())
            is RetryDecision.SignInAndRetry -> mapOf("decision" to "sign_in_and_retry")
            is RetryDecision.RefetchProjection -> mapOf("decision" to "refetch_projection")
            is RetryDecision.Done -> mapOf("decision" to "done")
        }
        return if (actual == case["expect"]) null else "got ${JsonValues.text(actual)}"
    }

    /** `renderer-conformance.v1.json` decision: whether the patched card renders, and its actions. */
    fun decision(case: Map<String, Any?>, cards: Map<String, Any?>): String? {
        var card = cards[case["card"]]
        for (op in case["patch"] as List<Map<String, Any?>>) {
            card = RendererFixtures.patched(card, (op["path"] as String).split('/').drop(1), op["op"] as String, op["value"])
        }
        val decoded = CatalogCard.decode(JsonValues.toJson(card))
        val expect = case["expect"] as Map<String, Any?>
        if ((decoded != null) != expect["rendered"]) return if (decoded == null) "did not decode" else "decoded"
        val labels = decoded?.handoff?.actionLabels ?: emptyList<String>()
        return if (labels == expect["actions"]) null else "actions $labels"
    }

    /** `interaction.v1.json`: every step's effects, exactly, in order. */
    fun interaction(case: Map<String, Any?>, cards: Map<String, Any?>): String? {
        val config = case["config"] as Map<String, Any?>
        val runner: (Map<String, Any?>) -> List<Map<String, Any?>> = when (case["flow"]) {
            "chia" -> ChiaVectorRunner(config, cards)::apply
            "verification" -> VerificationVectorRunner(config)::apply
            else -> ConnectVectorRunner(config)::apply
        }
        for ((index, step) in (case["steps"] as List<Map<String, Any?>>).withIndex()) {
            val effects = runner(step["event"] as Map<String, Any?>)
            if (effects != step["expect"]) {
                return "step $index ${JsonValues.text(step["event"])}: got ${JsonValues.text(effects)}"
            }
        }
        return null
    }
}
