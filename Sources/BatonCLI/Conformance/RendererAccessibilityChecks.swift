import BatonClient
import BatonCore
import Foundation

/// The accessibility cases of `renderer-conformance.v1.json` that BatonClient's ``CatalogRenderPlan`` decides: the
/// reading order, the image's alt text and the equal access of the two actions. Every Swift shell maps the plan to
/// its views and adds nothing, so what the plan holds is what VoiceOver reads. The cases about pixels, text scaling,
/// keyboard focus, motion or an audit tool concern BatonApple's views, which are not compiled here: not run.
enum RendererAccessibilityChecks {
    typealias CaseResult = ConformanceRunner.CaseResult

    /// The fixture cards every check renders: one of each mode.
    private static let cardNames = ["share", "neutral"]

    /// The result of the accessibility case `entry` (whose id is `id`).
    static func result(id: String, entry: JSONValue, file: String, fixtures: RendererFixtures) -> CaseResult {
        let failure: String?
        switch id {
        case "reading-order": failure = readingOrder(entry, fixtures: fixtures)
        case "image-alt": failure = imageAlt(fixtures)
        case "equal-access": failure = equalAccess(fixtures)
        default:
            return .notRun(
                file, "accessibility", id,
                reason: "no Swift-side check: the views it concerns are BatonApple's (Apple platforms)")
        }
        return .checked(file, "accessibility", id, failure: failure)
    }

    /// The decoded fixture card `name` and its JSON, or why there is none.
    private static func card(_ name: String, _ fixtures: RendererFixtures) -> Result<(CatalogCard, JSONValue), Text> {
        guard let json = fixtures.card(named: name) else { return .failure(Text("no fixture card '\(name)'")) }
        guard let card = RendererFixtures.decoded(json) else { return .failure(Text("\(name): does not decode")) }
        return .success((card, json))
    }

    /// A failure detail.
    private struct Text: Error {
        let value: String
        init(_ value: String) { self.value = value }
    }

    /// The disclosure's elements follow `order` (`block:*` standing for the card's `block_order`); a part the card
    /// does not have (the neutral card has no recipient or secondary action) is left out, and nothing else appears.
    private static func readingOrder(_ entry: JSONValue, fixtures: RendererFixtures) -> String? {
        guard case .array(let names)? = entry["order"], !names.isEmpty else { return "case lacks order" }
        for name in cardNames {
            let card: CatalogCard
            switch Self.card(name, fixtures) {
            case .success(let found): card = found.0
            case .failure(let text): return text.value
            }
            let expected = names.compactMap(\.stringValue).flatMap { part in
                part == "block:*" ? card.blockOrder.map { "block:\($0.rawValue)" } : [part]
            }
            let plan = CatalogRenderPlan.disclosure(card, shareEnabled: true, continueEnabled: true)
            let ids = plan.elements.map(\.id)
            if ids != expected.filter(ids.contains) { return "\(name): order \(ids.joined(separator: ", "))" }
        }
        return nil
    }

    /// The image element, on the card and in the disclosure, speaks the projection's `image.alt` exactly.
    private static func imageAlt(_ fixtures: RendererFixtures) -> String? {
        for name in cardNames {
            let card: CatalogCard
            let json: JSONValue
            switch Self.card(name, fixtures) {
            case .success(let found): (card, json) = found
            case .failure(let text): return text.value
            }
            guard let alt = json["image"]?["alt"]?.stringValue else { return "\(name): fixture lacks image.alt" }
            let plans = [
                CatalogRenderPlan.catalog(card),
                CatalogRenderPlan.disclosure(card, shareEnabled: true, continueEnabled: true),
            ]
            for plan in plans {
                let images = plan.elements.filter { if case .image = $0.kind { true } else { false } }
                guard images.count == 1 else { return "\(name): \(images.count) image elements" }
                if images[0].accessibilityLabel != alt { return "\(name): the image does not speak image.alt" }
            }
        }
        return nil
    }

    /// In every state where the user still has the choice (the disclosure, the share request in flight, a
    /// Retry-After wait, after it), the share card's two actions are the same kind of element, enabled alike.
    ///
    /// Left out on purpose: the state after a share tap has joined a Retry-After wait, where the share (already
    /// chosen, its retry queued) is disabled and `Continue without sharing` stays usable.
    private static func equalAccess(_ fixtures: RendererFixtures) -> String? {
        let card: CatalogCard
        switch Self.card("share", fixtures) {
        case .success(let found): card = found.0
        case .failure(let text): return text.value
        }
        guard card.handoff.mode == .shareOrNeutral else { return "fixture card 'share' is not share_or_neutral" }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var machine = ChiaHandoffMachine(catalogItemID: card.id, genericReturn: nil)
        _ = machine.handle(.callToActionTapped)
        _ = machine.handle(.projectionLoaded(card))
        var states = [("disclosure", machine.screen)]
        _ = machine.handle(.shareTapped(at: start, freshKey: RendererInteractionRun.conformanceKey(1)))
        states.append(("share in flight", machine.screen))
        _ = machine.handle(.shareFailed(.response(status: 503, retryAfter: "5"), at: start))
        states.append(("Retry-After wait", machine.screen))
        _ = machine.handle(.tick(start.addingTimeInterval(5)))
        states.append(("after the wait", machine.screen))
        for (state, screen) in states {
            guard let plan = CatalogRenderPlan.screen(screen, card: card) else { return "\(state): nothing rendered" }
            let enabled = plan.elements.compactMap { element -> Bool? in
                if case .action(_, let enabled) = element.kind { enabled } else { nil }
            }
            guard enabled.count == 2 else { return "\(state): \(enabled.count) actions" }
            if enabled[0] != enabled[1] { return "\(state): share enabled \(enabled[0]), continue \(enabled[1])" }
        }
        return nil
    }
}
