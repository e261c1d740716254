import BatonCore
import Foundation
import Testing

@testable import BatonClient

/// Telemetry is structurally unable to carry a URL, a query, a selection or an id.
@Suite struct TelemetryEventTests {
    /// Every leaf of every event's payload is a payload-free enum case: there is no String, number or data field.
    @Test(arguments: TelemetryEvent.allCases)
    func payloadHoldsOnlyClosedEnumerations(event: TelemetryEvent) {
        for leaf in leaves(of: event) {
            #expect(Mirror(reflecting: leaf).displayStyle == .enum, "\(type(of: leaf)) in \(event.name)")
            #expect(
                !(leaf is String) && !(leaf is Substring) && !(leaf is URL) && !(leaf is Data)
                    && !(leaf is SensitiveURL))
            #expect(!(leaf is any BinaryInteger) && !(leaf is any BinaryFloatingPoint))
        }
    }

    @Test func allCasesNamesEveryCase() {
        #expect(Set(TelemetryEvent.allCases.map(\.name)) == Set(TelemetryEvent.Name.allCases))
        #expect(Set(TelemetryEvent.allCases).count == TelemetryEvent.allCases.count)
    }

    /// The check above would notice a payload that could carry text.
    @Test func leafCheckSeesStringsAndURLs() {
        enum Leaky { case url(String), journey(SensitiveURL) }
        let leaks =
            leaves(of: Leaky.url("https://x.example")) + leaves(of: Leaky.journey(SensitiveURL("https://x.example")!))
        #expect(leaks.contains { $0 is String })
        #expect(leaks.contains { $0 is SensitiveURL })
        #expect(containsSensitiveURL(Leaky.journey(SensitiveURL("https://x.example")!)))
    }

    /// Every value reachable from `value` that has no children (a payload-free case, or a scalar), or is a
    /// ``SensitiveURL``.
    func leaves(of value: Any) -> [Any] {
        if value is SensitiveURL { return [value] }
        let children = Mirror(reflecting: value).children
        if children.isEmpty { return [value] }
        return children.flatMap { leaves(of: $0.value) }
    }
}
