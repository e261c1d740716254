import BatonClient
import BatonCore
import Foundation

extension ConformanceRunner {
    /// `renderer-conformance.v1.json` on the Swift shell:
    /// - `decision`: the patched card through BatonCore's strict `CatalogCard` decoder (a card that does not decode is
    ///   left out) and then through BatonClient's ``ChiaHandoffMachine``, whose screen gives the actions;
    /// - `interaction`: every case through ``ChiaHandoffMachine`` (``RendererInteractionRun``);
    /// - `forbidden`: the cases a Swift-side check exists for (``RendererForbiddenChecks``), the rest not run;
    /// - `accessibility`: the cases BatonClient's ``CatalogRenderPlan`` decides (``RendererAccessibilityChecks``), the
    ///   rest not run (the views they concern are BatonApple's, not compiled here).
    static func rendererConformance(_ document: JSONValue, file: String) -> [CaseResult] {
        guard let fixtures = RendererFixtures(document) else {
            return [.checked(file, "file", file, failure: "no fixtures.cards")]
        }
        var results: [CaseResult] = []
        var observations: [RendererInteractionRun.Observations] = []
        for section in ["decision", "interaction", "accessibility", "forbidden"] {
            guard case .array(let entries)? = document[section] else {
                results.append(.checked(file, section, "\(file)#\(section)", failure: "section missing"))
                continue
            }
            for (offset, entry) in entries.enumerated() {
                let id = entry["id"]?.stringValue ?? "\(file)#\(section)\(offset)"
                guard entry["id"]?.stringValue != nil, entry["description"]?.stringValue != nil else {
                    results.append(.checked(file, section, id, failure: "case lacks id or description"))
                    continue
                }
                switch section {
                case "decision":
                    results.append(.checked(file, section, id, failure: rendererDecision(entry, fixtures: fixtures)))
                case "interaction":
                    let (failure, seen) = rendererInteraction(entry, fixtures: fixtures)
                    if let seen { observations.append(seen) }
                    results.append(.checked(file, section, id, failure: failure))
                case "forbidden":
                    results.append(
                        RendererForbiddenChecks.result(id: id, file: file, fixtures: fixtures, runs: observations))
                default:
                    results.append(
                        RendererAccessibilityChecks.result(id: id, entry: entry, file: file, fixtures: fixtures))
                }
            }
        }
        return results
    }

    private static func rendererDecision(_ entry: JSONValue, fixtures: RendererFixtures) -> String? {
        guard let cardName = entry["card"]?.stringValue, let base = fixtures.card(named: cardName),
            case .array(let patch)? = entry["patch"], let expected = entry["expect"],
            case .bool(let rendered)? = expected["rendered"], case .array(let actions)? = expected["actions"]
        else { return "case lacks card, patch or expect" }
        guard let card = RendererFixtures.patched(base, with: patch) else { return "bad patch operation" }
        let decoded = RendererFixtures.decoded(card)
        guard (decoded != nil) == rendered else { return rendered ? "did not decode" : "decoded" }
        if let decoded, case .array(let order)? = card["presentation_contract"]?["block_order"],
            decoded.blockOrder.map({ JSONValue.string($0.rawValue) }) != order
        {
            return "block order \(decoded.blockOrder.map(\.rawValue))"
        }
        // What the app shows once the call to action has fetched this card (a card left out arrives as absent).
        var machine = ChiaHandoffMachine(catalogItemID: card["id"]?.stringValue ?? "", genericReturn: nil)
        _ = machine.handle(.callToActionTapped)
        _ = machine.handle(.projectionLoaded(decoded))
        let labels = machine.screen.actionLabels
        return labels.map(JSONValue.string) == actions ? nil : "actions \(labels)"
    }

    private static func rendererInteraction(
        _ entry: JSONValue, fixtures: RendererFixtures
    ) -> (String?, RendererInteractionRun.Observations?) {
        guard case .array(let steps)? = entry["steps"], !steps.isEmpty else { return ("case has no steps", nil) }
        let card = entry["card"]?.stringValue ?? "share"
        guard var run = RendererInteractionRun(fixtures: fixtures, card: card) else {
            return ("no fixture card '\(card)'", nil)
        }
        let failure = run.run(steps)
        return (failure, run.observations)
    }
}
