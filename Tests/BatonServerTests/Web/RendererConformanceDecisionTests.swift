import BatonCore
import Foundation
import Testing

/// The renderer conformance's decision cases against BatonCore's strict `CatalogCard` decoder: a card a renderer
/// must leave out is one the Swift decoder rejects, and the actions follow the decoded mode.
@Suite struct RendererConformanceDecisionTests {
    @Test(arguments: RendererConformanceFile.decisionCases)
    func decisionCase(_ testCase: RendererConformanceFile.DecisionCase) {
        let card = try? JSONDecoder().decode(CatalogCard.self, from: testCase.cardJSON)
        #expect((card != nil) == testCase.rendered)
        guard let card else { return }
        let actions: [String] =
            switch card.handoff {
            case .neutralOnly: [MobileHandoff.continueLabel]
            case .shareOrNeutral: [MobileHandoff.shareLabel, MobileHandoff.continueWithoutSharingLabel]
            }
        #expect(actions == testCase.actions)
    }
}
