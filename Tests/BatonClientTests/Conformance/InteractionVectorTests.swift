import Testing

@testable import BatonClient

/// Runs every case of `Conformance/interaction.v1.json` against the flow machines.
@Suite struct InteractionVectorTests {
    static let vectors = InteractionVectors.file

    @Test(arguments: vectors.cases)
    func vector(_ vectorCase: InteractionVectors.Case) {
        var runner: any InteractionVectorRunner =
            switch vectorCase.flow {
            case "chia": ChiaVectorRunner(config: vectorCase.config, cards: Self.vectors.decodedCards)
            case "verification": VerificationVectorRunner(config: vectorCase.config)
            default: ConnectVectorRunner(config: vectorCase.config)
            }
        for (index, step) in vectorCase.steps.enumerated() {
            let (effects, telemetry) = runner.apply(step.event)
            #expect(effects == step.expect, "step \(index): \(step.event)")
            for event in telemetry {
                #expect(!event.contains("://") && !event.contains("phs_") && !event.contains("ticket"), "\(event)")
            }
        }
    }

    /// Every non-pixel line of seed 000's "Mobile test matrix" has at least one vector.
    @Test(arguments: [
        "hidden never renders", "neutral_only has one action", "share_or_neutral has two equal-access actions",
        "stale/missing/unsupported service-state evidence fails safely",
        "each supported platform opens an external OS browser",
        "instrumentation/traffic capture shows no request before tap and no URL in telemetry",
        "invalid/expired context remains generic Chia and produces no partner callback",
        "generic return ignores crafted query/fragment values and routes only to marketplace home",
        "background and restored views refresh the projection without inferring an outcome",
        "double taps produce one session request and one external navigation",
        "an uncertain retry reuses the exact body and idempotency key",
    ])
    func mobileTestMatrixLineIsCovered(line: String) {
        #expect(Self.vectors.cases.contains { $0.flow == "chia" && $0.matrix == line })
    }

    @Test func chiaNavigatesOnlyToTheExternalBrowser() {
        let navigations = Self.vectors.cases.filter { $0.flow == "chia" }.flatMap(\.steps).flatMap(\.expect)
            .compactMap { $0["navigate"] }
        #expect(!navigations.isEmpty)
        #expect(navigations.allSatisfy { $0 == "external" })
    }
}
