package baton.client

import org.json.JSONArray
import org.json.JSONObject

/** Seed 000's closed `MobileHandoff` union. The action labels and `sessionCreationPath` are literals, not data. */
sealed class MobileHandoff {
    /** `neutral_only`: one action, `Continue to Chia`, opening [url] in the external browser. No session action. */
    data class NeutralOnly(val heading: String, val body: String, val url: String) : MobileHandoff()

    /** `share_or_neutral`: the just-in-time disclosure and two equally usable actions. */
    data class ShareOrNeutral(
        val heading: String,
        val body: String,
        val recipientLegalName: String,
        val recipientPrivacyContact: String,
        val dataShared: List<String>,
        val purpose: String,
        val compensationDisclosure: String,
        val policyUrls: List<Pair<String, String>>,
        val disclosureVersion: String,
        val neutralUrl: String
    ) : MobileHandoff()

    /** The action labels, in order. */
    val actionLabels: List<String>
        get() = when (this) {
            is NeutralOnly -> listOf(CONTINUE_LABEL)
            is ShareOrNeutral -> listOf(SHARE_LABEL, CONTINUE_WITHOUT_SHARING_LABEL)
        }

    /** The `mode` value. */
    val mode: String get() = if (this is NeutralOnly) "neutral_only" else "share_or_neutral"

    companion object {
        const val CONTINUE_LABEL = "Continue to Chia"
        const val SHARE_LABEL = "Share selection and continue"
        const val CONTINUE_WITHOUT_SHARING_LABEL = "Continue without sharing"
        const val SESSION_CREATION_PATH = "/v2/handoff-sessions"
    }
}

/** A block of a card, in the order `block_order` names them; [wire] is its name there. */
enum class CatalogBlock(val wire: String) {
    IMAGE("image"), TITLE("title"), SUMMARY("summary"), PRICE("price");

    companion object {
        /** The block named [wire], or `null` for any other name. */
        fun of(wire: String): CatalogBlock? = values().firstOrNull { it.wire == wire }
    }
}

/**
 * One card of `GET /v2/catalog`, decoded strictly as BatonCore's `CatalogCard` is: a card that does not decode is
 * left out (no action is safe). The handoff object rejects unknown modes, changed literals, non-https URLs and any
 * extra key; the card's own top level ignores unknown keys; `block_order` names image, title, summary and price
 * exactly once each.
 */
data class CatalogCard(
    val id: String,
    val blockOrder: List<CatalogBlock>,
    val title: String,
    val summary: String,
    val priceText: String,
    val imageUrl: String,
    val imageAlt: String,
    val handoff: MobileHandoff
) {
    companion object {

        /** Decodes [json] strictly; `null` when a renderer must leave the card out. */
        fun decode(json: Any?, policy: UrlPolicy = UrlPolicy.PRODUCTION): CatalogCard? = try {
            decodeOrThrow(json, policy)
        } catch (e: InvalidCard) {
            null
        }

        private class InvalidCard : Exception()

        private fun fail(): Nothing = throw InvalidCard()

        private fun decodeOrThrow(json: Any?, policy: UrlPolicy): CatalogCard {
            val card = json as? JSONObject ?: fail()
            val id = nonEmpty(card, "id")
            val presentation = card.opt("presentation_contract") as? JSONObject ?: fail()
            val order = strings(presentation.opt("block_order")).map { CatalogBlock.of(it) ?: fail() }
            if (order.size != CatalogBlock.values().size || order.toSet().size != order.size) fail()
            val title = nonEmpty(card, "title")
            val summary = nonEmpty(card, "summary")
            val priceText = nonEmpty(card, "priceText")
            val image = card.opt("image") as? JSONObject ?: fail()
            val imageUrl = httpsUrl(image.opt("url"), policy)
            val imageAlt = image.opt("alt") as? String ?: fail()
            val handoff = handoff(card.opt("handoff") as? JSONObject ?: fail(), policy)
            return CatalogCard(id, order, title, summary, priceText, imageUrl, imageAlt, handoff)
        }

        private fun handoff(h: JSONObject, policy: UrlPolicy): MobileHandoff = when (h.opt("mode") as? String ?: fail()) {
            "neutral_only" -> {
                onlyKeys(h, "mode", "heading", "body", "actionLabel", "url")
                literal(h, "actionLabel", MobileHandoff.CONTINUE_LABEL)
                MobileHandoff.NeutralOnly(nonEmpty(h, "heading"), nonEmpty(h, "body"), httpsUrl(h.opt("url"), policy))
            }
            "share_or_neutral" -> {
                onlyKeys(
                    h, "mode", "heading", "body", "recipient", "dataShared", "purpose", "compensationDisclosure",
                    "policyUrls", "primary", "secondary"
                )
                val recipient = h.opt("recipient") as? JSONObject ?: fail()
                onlyKeys(recipient, "legal_name", "privacy_contact")
                val policies = h.opt("policyUrls") as? JSONObject ?: fail()
                val policyUrls = policies.keys().asSequence().toList().sorted().map { it to httpsUrl(policies.opt(it), policy) }
                val primary = h.opt("primary") as? JSONObject ?: fail()
                onlyKeys(primary, "actionLabel", "sessionCreationPath", "disclosureVersion")
                literal(primary, "actionLabel", MobileHandoff.SHARE_LABEL)
                literal(primary, "sessionCreationPath", MobileHandoff.SESSION_CREATION_PATH)
                val secondary = h.opt("secondary") as? JSONObject ?: fail()
                onlyKeys(secondary, "actionLabel", "url")
                literal(secondary, "actionLabel", MobileHandoff.CONTINUE_WITHOUT_SHARING_LABEL)
                MobileHandoff.ShareOrNeutral(
                    heading = nonEmpty(h, "heading"),
                    body = nonEmpty(h, "body"),
                    recipientLegalName = nonEmpty(recipient, "legal_name"),
                    recipientPrivacyContact = nonEmpty(recipient, "privacy_contact"),
                    dataShared = strings(h.opt("dataShared")),
                    purpose = h.opt("purpose") as? String ?: fail(),
                    compensationDisclosure = h.opt("compensationDisclosure") as? String ?: fail(),
                    policyUrls = policyUrls,
                    disclosureVersion = nonEmpty(primary, "disclosureVersion"),
                    neutralUrl = httpsUrl(secondary.opt("url"), policy)
                )
            }
            else -> fail()
        }

        private fun onlyKeys(o: JSONObject, vararg allowed: String) {
            for (key in o.keys()) if (key !in allowed) fail()
        }

        private fun literal(o: JSONObject, key: String, value: String) {
            if (o.opt(key) != value) fail()
        }

        private fun nonEmpty(o: JSONObject, key: String): String {
            val value = o.opt(key) as? String ?: fail()
            if (value.isEmpty()) fail()
            return value
        }

        private fun strings(value: Any?): List<String> {
            val array = value as? JSONArray ?: fail()
            return (0 until array.length()).map { array.opt(it) as? String ?: fail() }
        }

        private fun httpsUrl(value: Any?, policy: UrlPolicy): String {
            val text = value as? String ?: fail()
            if (!policy.accepts(text)) fail()
            return text
        }

        /** An absolute https URL with a host and no userinfo, split strictly (BatonCore `HTTPSURL`). */
        fun isHttpsUrl(text: String): Boolean = UrlPolicy.PRODUCTION.accepts(text)
    }
}
