import BatonCore
import BatonTestSupport
import Foundation
import Testing

@testable import BatonClient

/// The catalog card and JIT disclosure render plan, against the `accessibility` cases of
/// `Conformance/renderer-conformance.v1.json` that a plan can decide (reading order, image alt, equal access).
@Suite struct CatalogRenderPlanTests {
    struct RendererFile: Decodable, Sendable {
        struct Fixtures: Decodable, Sendable { let cards: [String: CatalogCard] }
        struct AccessibilityCase: Decodable, Sendable {
            let id: String
            let order: [String]?
        }
        let fixtures: Fixtures
        let accessibility: [AccessibilityCase]
    }

    static let file = try! VectorFile.load("Conformance/renderer-conformance.v1.json", as: RendererFile.self)

    static func card(_ name: String) -> CatalogCard {
        file.fixtures.cards[name]!
    }

    /// `reading-order`, with `block:*` expanded to the card's `block_order`; a part the card does not have (the
    /// neutral card has no recipient, data, policies or secondary action) is left out, the rest keep their order.
    static func expectedOrder(for card: CatalogCard) -> [String] {
        let order = file.accessibility.first { $0.id == "reading-order" }!.order!
        return order.flatMap { name in name == "block:*" ? card.blockOrder.map { "block:\($0.rawValue)" } : [name] }
    }

    @Test(arguments: ["share", "neutral"])
    func readingOrderIsTheVectors(fixture: String) {
        let card = Self.card(fixture)
        let plan = CatalogRenderPlan.disclosure(card, shareEnabled: true, continueEnabled: true)
        let expected = Self.expectedOrder(for: card).filter { Set(plan.elements.map(\.id)).contains($0) }
        #expect(plan.elements.map(\.id) == expected)
        #expect(plan.initialFocus == "disclosure.heading", "focus moves to the disclosure heading after the CTA")
        if fixture == "share" {
            #expect(plan.elements.map(\.id) == Self.expectedOrder(for: card), "the share disclosure has every part")
        }
    }

    @Test(arguments: ["share", "neutral"])
    func theImageSpeaksItsAltTextAndTheBlocksComeFirst(fixture: String) {
        let card = Self.card(fixture)
        let plan = CatalogRenderPlan.catalog(card)
        let image = plan.elements.first { $0.id == "block:image" }!
        #expect(image.accessibilityLabel == card.image.alt)
        #expect(plan.elements.map(\.id) == card.blockOrder.map { "block:\($0.rawValue)" } + ["action.cta"])
        #expect(plan.elements.last?.accessibilityHint == card.title, "Get started is described by the title")
    }

    /// `equal-access` and the decision vectors' action labels: share_or_neutral has two actions of the same kind,
    /// enabled together; neutral_only has one and no share action.
    @Test func actionsAreTheExactLabelsAndEquallyUsable() {
        let share = CatalogRenderPlan.disclosure(Self.card("share"), shareEnabled: true, continueEnabled: true)
        let actions = share.elements.filter { if case .action = $0.kind { true } else { false } }
        #expect(actions.map(\.text) == ["Share selection and continue", "Continue without sharing"])
        #expect(actions.map(\.accessibilityLabel) == actions.map(\.text))
        #expect(
            actions.map(\.kind) == [.action(.share, enabled: true), .action(.continueWithoutSharing, enabled: true)])
        let neutral = CatalogRenderPlan.disclosure(Self.card("neutral"), shareEnabled: false, continueEnabled: true)
        let only = neutral.elements.filter { if case .action = $0.kind { true } else { false } }
        #expect(only.map(\.text) == ["Continue to Chia"])
        #expect(only.map(\.kind) == [.action(.continueWithoutSharing, enabled: true)])
    }

    @Test func theDisclosureSpeaksEachTermWithItsDetails() {
        let plan = CatalogRenderPlan.disclosure(Self.card("share"), shareEnabled: true, continueEnabled: true)
        let spoken = Dictionary(uniqueKeysWithValues: plan.elements.map { ($0.id, $0.accessibilityLabel) })
        #expect(
            spoken["disclosure.recipient"]
                == "Who receives it: Chia Health Services Incorporated, "
                + "Privacy contact: privacy-requests@chia-health-services.example")
        #expect(spoken["disclosure.policyUrls"] == "Policies: Privacy, Terms")
        #expect(spoken["disclosure.heading"] == "Share your selection with Chia Health?")
    }

    @Test func theScreenDecidesWhatRenders() {
        let card = Self.card("share")
        #expect(CatalogRenderPlan.screen(ChiaScreen(content: .hidden), card: card) == nil, "hidden never renders")
        let unavailable = CatalogRenderPlan.screen(ChiaScreen(content: .unavailable), card: card)!
        #expect(!unavailable.elements.contains { if case .action = $0.kind { true } else { false } })
        let loading = CatalogRenderPlan.screen(ChiaScreen(content: .loading), card: card)!
        #expect(loading.elements.last?.kind == .action(.callToAction, enabled: false))
        let busy = CatalogRenderPlan.screen(ChiaScreen(content: .handoff(card)), card: card)!
        #expect(
            busy.elements.suffix(2).map(\.kind) == [
                .action(.share, enabled: false), .action(.continueWithoutSharing, enabled: false),
            ])
    }

    /// The card view moves VoiceOver focus when the screen changes, not only when it appears: to the disclosure
    /// heading when the disclosure replaces the card after `Get started` (or is on screen when the view appears), and
    /// never again while the disclosure only changes which buttons work (a share in flight, a retry, a sign-in), so
    /// focus is not taken from the button the user is on.
    @Test(arguments: ["share", "neutral"])
    func focusMovesWhenTheDisclosureAppearsAndOnlyThen(fixture: String) {
        let card = Self.card(fixture)
        func plan(_ screen: ChiaScreen) -> CatalogRenderPlan? { CatalogRenderPlan.screen(screen, card: card) }
        let cardScreen = plan(ChiaScreen(content: .card))!
        let loading = plan(ChiaScreen(content: .loading))!
        let disclosure = plan(ChiaScreen(content: .handoff(card), shareEnabled: true, continueEnabled: true))!
        let busy = plan(ChiaScreen(content: .handoff(card)))!
        let retryLater = plan(
            ChiaScreen(content: .handoff(card), shareEnabled: true, continueEnabled: true, notice: .shareRetryLater))!
        let signIn = plan(
            ChiaScreen(content: .handoff(card), shareEnabled: true, continueEnabled: true, notice: .signInRequired))!

        #expect(cardScreen.focusMove(from: nil) == nil, "the card alone takes no focus when it appears")
        #expect(loading.focusMove(from: cardScreen) == nil)
        #expect(disclosure.focusMove(from: loading) == "disclosure.heading", "after the CTA: the heading")
        #expect(disclosure.focusMove(from: cardScreen) == "disclosure.heading")
        #expect(disclosure.focusMove(from: nil) == "disclosure.heading", "a view appearing on the disclosure")
        #expect(busy.focusMove(from: disclosure) == nil, "a share in flight keeps focus where it is")
        #expect(disclosure.focusMove(from: busy) == nil, "buttons enabled again keep focus where it is")
        #expect(retryLater.focusMove(from: busy) == nil)
        #expect(signIn.focusMove(from: disclosure) == nil)
        #expect(cardScreen.focusMove(from: disclosure) == nil, "back to the card: focus is not forced")
        #expect(disclosure.focusMove(from: cardScreen) == "disclosure.heading", "and the next CTA moves it again")
    }
}
