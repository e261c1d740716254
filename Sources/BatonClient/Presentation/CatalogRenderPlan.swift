import BatonCore

/// What a shell renders for a Chia catalog card and its just-in-time disclosure (seed 000), in reading order: the
/// order on screen, in the accessibility tree (VoiceOver) and in keyboard focus.
///
/// Every shell maps this plan to its own views and adds nothing: the blocks in `presentation_contract.block_order`,
/// then the disclosure (heading, body, recipient, data shared, purpose, compensation, policies), then the actions.
/// Element ids are the names of `Conformance/renderer-conformance.v1.json`'s `reading-order` case (`block:image`,
/// `disclosure.heading`, …, `action.primary`). The actions carry no style of their own: a `share_or_neutral` card's
/// two actions are the same kind of element, so a renderer cannot make one more prominent than the other, and their
/// enabled state comes from the ``ChiaScreen``. Text is never truncated (no line limit anywhere).
public struct CatalogRenderPlan: Sendable, Hashable {
    /// An action a plan offers.
    public enum Action: Sendable, Hashable {
        /// `Get started`: opens the disclosure (fetches a fresh projection; no request to Chia).
        case callToAction
        /// `Share selection and continue`.
        case share
        /// `Continue without sharing` (share_or_neutral) or `Continue to Chia` (neutral_only).
        case continueWithoutSharing
    }

    /// A link of the disclosure (a policy).
    public struct Link: Sendable, Hashable {
        /// The visible and spoken label.
        public let label: String
        /// Where it leads (opened in the OS browser).
        public let url: HTTPSURL
    }

    /// One thing on screen.
    public struct Element: Sendable, Hashable, Identifiable {
        /// What kind of element it is.
        public enum Kind: Sendable, Hashable {
            /// The card image; ``Element/accessibilityLabel`` is its alt text.
            case image(HTTPSURL)
            /// A heading (the card's title, the disclosure's heading).
            case heading
            /// A paragraph.
            case text
            /// A described term: ``Element/text`` is the term, `details` its lines, spoken as one element.
            case described(details: [String])
            /// A term with links.
            case links([Link])
            /// A button.
            case action(Action, enabled: Bool)
        }

        /// The element's reading-order name.
        public let id: String
        /// Its kind.
        public let kind: Kind
        /// The visible text (empty for the image).
        public let text: String
        /// What VoiceOver speaks.
        public let accessibilityLabel: String
        /// What VoiceOver adds after a pause, if anything.
        public let accessibilityHint: String?

        init(_ id: String, _ kind: Kind, text: String, label: String? = nil, hint: String? = nil) {
            self.id = id
            self.kind = kind
            self.text = text
            accessibilityLabel = label ?? text
            accessibilityHint = hint
        }
    }

    /// The elements, in reading order.
    public let elements: [Element]
    /// The element that takes accessibility focus when the plan appears (the disclosure heading after the CTA).
    public let initialFocus: String?

    /// The element accessibility focus moves to when the screen changes from `previous` (`nil`: the view has just
    /// appeared) to this plan: ``initialFocus`` when `previous` did not have it (the disclosure replacing the card
    /// after the call to action, or a view appearing on the disclosure); `nil` otherwise, so a change within the
    /// disclosure (a share in flight, buttons enabled again, a notice) never takes focus from where the user is.
    public func focusMove(from previous: CatalogRenderPlan?) -> String? {
        guard let initialFocus, previous?.initialFocus != initialFocus else { return nil }
        return initialFocus
    }

    /// The catalog card before its call to action: the blocks, then `Get started` (described by the title).
    public static func catalog(_ card: CatalogCard, callToActionEnabled: Bool = true) -> CatalogRenderPlan {
        let cta = Element(
            "action.cta", .action(.callToAction, enabled: callToActionEnabled), text: "Get started", hint: card.title)
        return CatalogRenderPlan(elements: blocks(card) + [cta], initialFocus: nil)
    }

    /// The card with its just-in-time disclosure and the exact actions, enabled as the screen says.
    public static func disclosure(_ card: CatalogCard, shareEnabled: Bool, continueEnabled: Bool) -> CatalogRenderPlan {
        var elements = blocks(card)
        switch card.handoff {
        case .neutralOnly(let handoff):
            elements += [
                Element("disclosure.heading", .heading, text: handoff.heading),
                Element("disclosure.body", .text, text: handoff.body),
                Element(
                    "action.primary", .action(.continueWithoutSharing, enabled: continueEnabled),
                    text: handoff.actionLabel),
            ]
        case .shareOrNeutral(let handoff):
            elements += disclosure(handoff)
            elements += [
                Element("action.primary", .action(.share, enabled: shareEnabled), text: MobileHandoff.shareLabel),
                Element(
                    "action.secondary", .action(.continueWithoutSharing, enabled: continueEnabled),
                    text: MobileHandoff.continueWithoutSharingLabel),
            ]
        }
        return CatalogRenderPlan(elements: elements, initialFocus: "disclosure.heading")
    }

    /// What `screen` shows for the catalog item `card`: the card and its CTA (disabled while loading), the
    /// disclosure, the card without any action when the projection could not be fetched, or nothing when hidden.
    public static func screen(_ screen: ChiaScreen, card: CatalogCard) -> CatalogRenderPlan? {
        switch screen.content {
        case .card: catalog(card)
        case .loading: catalog(card, callToActionEnabled: false)
        case .hidden: nil
        case .unavailable: CatalogRenderPlan(elements: blocks(card), initialFocus: nil)
        case .handoff(let fresh):
            disclosure(fresh, shareEnabled: screen.shareEnabled, continueEnabled: screen.continueEnabled)
        }
    }

    /// The presentation blocks in the card's `block_order`.
    static func blocks(_ card: CatalogCard) -> [Element] {
        card.blockOrder.map { block in
            switch block {
            case .image: Element("block:image", .image(card.image.url), text: "", label: card.image.alt)
            case .title: Element("block:title", .heading, text: card.title)
            case .summary: Element("block:summary", .text, text: card.summary)
            case .price: Element("block:price", .text, text: card.priceText)
            }
        }
    }

    /// The share_or_neutral disclosure, worded as the web shell words it.
    static func disclosure(_ handoff: MobileHandoff.ShareOrNeutral) -> [Element] {
        var elements = [
            Element("disclosure.heading", .heading, text: handoff.heading),
            Element("disclosure.body", .text, text: handoff.body),
            described(
                "disclosure.recipient", "Who receives it",
                [handoff.recipient.legalName, "Privacy contact: " + handoff.recipient.privacyContact]),
        ]
        if !handoff.dataShared.isEmpty {
            elements.append(described("disclosure.dataShared", "What is shared", handoff.dataShared))
        }
        elements.append(described("disclosure.purpose", "Why", [handoff.purpose]))
        elements.append(
            described("disclosure.compensationDisclosure", "How we are paid", [handoff.compensationDisclosure]))
        if !handoff.policyURLs.isEmpty {
            let links = handoff.policyURLs.sorted { $0.key < $1.key }.map { name, url in
                Link(label: name.prefix(1).uppercased() + name.dropFirst(), url: url)
            }
            elements.append(
                Element(
                    "disclosure.policyUrls", .links(links), text: "Policies",
                    label: "Policies: " + links.map(\.label).joined(separator: ", ")))
        }
        return elements
    }

    static func described(_ id: String, _ term: String, _ details: [String]) -> Element {
        Element(id, .described(details: details), text: term, label: term + ": " + details.joined(separator: ", "))
    }
}
